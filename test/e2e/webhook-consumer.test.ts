import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { signWebhook } from '@app/webhooks';
import { freePort } from '../support/free-port';
import { waitFor } from '../support/wait-for';

// The built example consumer (`npm run example:webhook-consumer`, dist/bundle/webhook-consumer.js)
// as an operator starts it: over HTTPS from TLS files, with two secrets in the environment.
// Its behaviour against real deliveries is test/integration/webhook-consumer.test.ts.

const ROOT = resolve(__dirname, '../..');
const ENTRY = join(ROOT, 'dist/bundle/webhook-consumer.js');
const TLS = join(ROOT, 'test/fixtures/tls');
// Starting a bundle takes seconds on a busy 2-core box.
jest.setTimeout(90_000);

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('the built example webhook consumer', () => {
  let child: ChildProcess | undefined;
  let output = '';

  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((settle) => child!.once('exit', settle));
      child.kill('SIGTERM');
      await exited;
    }
    child = undefined;
    output = '';
  });

  function start(env: Record<string, string>): ChildProcess {
    child = spawn(process.execPath, [ENTRY], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return child;
  }

  beforeAll(() => {
    if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run "npm run build" first`);
  });

  it('serves HTTPS, takes deliveries signed with either secret and refuses others', async () => {
    const [current, previous] = [secret(), secret()];
    const port = await freePort();
    start({
      PORT: String(port),
      HOST: '127.0.0.1',
      SWITCHBOARD_WEBHOOK_SECRETS: `${current} ${previous}`,
      TLS_CERT_FILE: join(TLS, 'server.crt'),
      TLS_KEY_FILE: join(TLS, 'server.key'),
    });
    await waitFor(() => output.includes('listening on'), {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: 'the consumer to listen',
    });
    const url = `https://127.0.0.1:${port}/switchboard/events`;
    const send = (secrets: string[], id: string) => {
      const body = JSON.stringify({
        type: 'webhook.test',
        timestamp: new Date().toISOString(),
        data: { webhook_id: 'w', message: `hello ${id}`, occurred_at: new Date().toISOString() },
      });
      const headers = signWebhook({ id, timestamp: new Date(), body, secrets });
      return fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
      });
    };

    expect((await send([current], 'msg_1')).status).toBe(204);
    expect((await send([previous], 'msg_2')).status).toBe(204);
    expect((await send([secret()], 'msg_3')).status).toBe(401);
    const events = (await (await fetch(url)).json()) as Array<{ id: string; summary: string }>;
    expect(events).toEqual([
      expect.objectContaining({ id: 'msg_1', summary: 'hello msg_1' }),
      expect.objectContaining({ id: 'msg_2', summary: 'hello msg_2' }),
    ]);
  });

  it('refuses to start with a malformed secret, naming the problem', async () => {
    const started = start({
      PORT: String(await freePort()),
      SWITCHBOARD_WEBHOOK_SECRETS: 'whsec_%%%',
    });
    const code = await new Promise<number | null>((settle) => started.once('exit', settle));
    expect(code).toBe(1);
    expect(output).toContain('not base64');
  });
});
