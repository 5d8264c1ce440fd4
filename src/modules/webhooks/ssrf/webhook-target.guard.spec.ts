import type { LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import type { AppConfig } from '../../../config';
import type { WebhookDnsResolver } from './target-policy';
import { SsrfBlockedError, WebhookTargetGuard } from './webhook-target.guard';

const config = (allowPrivateTargets: boolean) =>
  ({ webhooks: { allowPrivateTargets } }) as AppConfig;

/** A resolver whose answer the test changes between the save check and the connection. */
function rebindingResolver() {
  let answer = ['93.184.216.34'];
  const resolve: WebhookDnsResolver = () =>
    Promise.resolve(answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  return { resolve, rebind: (...addresses: string[]) => (answer = addresses) };
}

function lookup(
  guard: WebhookTargetGuard,
  hostname: string,
  options: object,
): Promise<{ address: string | LookupAddress[]; family?: number }> {
  return new Promise((resolve, reject) =>
    guard.lookup(hostname, options, (error, address, family) =>
      error ? reject(error) : resolve({ address, family }),
    ),
  );
}

describe('WebhookTargetGuard', () => {
  it('passes public addresses through in both lookup shapes', async () => {
    const dns = rebindingResolver();
    const guard = new WebhookTargetGuard(config(false), dns.resolve);
    await expect(lookup(guard, 'hooks.example.com', {})).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    await expect(lookup(guard, 'hooks.example.com', { all: true })).resolves.toEqual({
      address: [{ address: '93.184.216.34', family: 4 }],
      family: undefined,
    });
  });

  it('refuses at connect time a host that rebinds to loopback after the save check', async () => {
    const dns = rebindingResolver();
    const guard = new WebhookTargetGuard(config(false), dns.resolve);
    await expect(guard.checkUrl('https://hooks.example.com/in')).resolves.toMatchObject({
      allowed: true,
    });
    dns.rebind('127.0.0.1');
    const error = await lookup(guard, 'hooks.example.com', { all: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SsrfBlockedError);
    expect(error).toMatchObject({
      code: 'ERR_SSRF_BLOCKED',
      hostname: 'hooks.example.com',
      address: '127.0.0.1',
    });
  });

  it.each(['169.254.169.254', '::ffff:10.0.0.1', 'fe80::1', '64:ff9b::a9fe:a9fe'])(
    'refuses %s at connect time',
    async (address) => {
      const dns = rebindingResolver();
      dns.rebind('93.184.216.34', address);
      const guard = new WebhookTargetGuard(config(false), dns.resolve);
      await expect(lookup(guard, 'hooks.example.com', {})).rejects.toBeInstanceOf(SsrfBlockedError);
    },
  );

  it('honours the requested family and fails with ENOTFOUND when none is left', async () => {
    const dns = rebindingResolver();
    dns.rebind('93.184.216.34', '2606:4700:4700::1111');
    const guard = new WebhookTargetGuard(config(false), dns.resolve);
    await expect(lookup(guard, 'hooks.example.com', { family: 6 })).resolves.toEqual({
      address: '2606:4700:4700::1111',
      family: 6,
    });
    dns.rebind('93.184.216.34');
    await expect(lookup(guard, 'hooks.example.com', { family: 6 })).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
  });

  it('lets loopback through when private targets are allowed (tests only)', async () => {
    const dns = rebindingResolver();
    dns.rebind('127.0.0.1');
    const guard = new WebhookTargetGuard(config(true), dns.resolve);
    await expect(lookup(guard, 'localhost', {})).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
  });
});

describe('WebhookTargetGuard.lookup as the lookup of https.request', () => {
  /** A loopback listener that counts the connections it receives. */
  async function canary() {
    let connections = 0;
    const server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      connections: () => connections,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  const post = (guard: WebhookTargetGuard, port: number) =>
    new Promise<NodeJS.ErrnoException>((resolve) => {
      const req = request({
        host: 'rebound.example.com',
        port,
        method: 'POST',
        lookup: guard.lookup,
        timeout: 2000,
      });
      req.on('error', resolve);
      req.on('response', () => resolve(new Error('unexpected response')));
      req.end('{}');
    });

  it('never connects to a host that resolves to loopback', async () => {
    const listener = await canary();
    const dns = rebindingResolver();
    dns.rebind('127.0.0.1');
    try {
      const error = await post(new WebhookTargetGuard(config(false), dns.resolve), listener.port);
      expect(error).toBeInstanceOf(SsrfBlockedError);
      expect(error.code).toBe('ERR_SSRF_BLOCKED');
      expect(listener.connections()).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it('connects when private targets are allowed (the canary sees the attempt)', async () => {
    const listener = await canary();
    const dns = rebindingResolver();
    dns.rebind('127.0.0.1');
    try {
      const error = await post(new WebhookTargetGuard(config(true), dns.resolve), listener.port);
      expect(error).not.toBeInstanceOf(SsrfBlockedError);
      expect(listener.connections()).toBe(1);
    } finally {
      await listener.close();
    }
  });
});
