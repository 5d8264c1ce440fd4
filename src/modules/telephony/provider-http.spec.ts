import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderHttp } from './provider-http';

describe('ProviderHttp', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // Answers /slow-body's headers at once and never finishes its body; never answers /silent.
    server = createServer((req, res) => {
      if (req.url === '/slow-body') res.writeHead(200).write('{"partial":');
      if (req.url === '/throttled') res.writeHead(429, { 'retry-after': '7' }).end();
      if (req.url === '/down') res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });

  it.each(['/silent', '/slow-body'])(
    'says the provider timed out when %s outlasts the timeout',
    async (path) => {
      const http = new ProviderHttp('Provider', () => undefined, { timeoutMs: 100 });
      await expect(
        http.request({ method: 'GET', url: `${base}${path}`, headers: {} }),
      ).rejects.toMatchObject({
        kind: 'unreachable',
        message: 'Provider could not be reached (timed out)',
      });
    },
  );

  it.each(['/silent', '/slow-body'])(
    'a timeout (%s) proves nothing: the provider may have acted',
    async (path) => {
      const http = new ProviderHttp('Provider', () => undefined, { timeoutMs: 100 });
      const error = await http
        .request({ method: 'POST', url: `${base}${path}`, headers: {} })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ provesNothingDone: false });
    },
  );

  it('a refused connection and a 429 prove nothing was done; a 5xx does not', async () => {
    const http = new ProviderHttp('Provider', () => undefined, { timeoutMs: 1_000 });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const send = (url: string) =>
      http.request({ method: 'POST', url, headers: {} }).catch((e: unknown) => e);
    expect(await send(`http://127.0.0.1:${port}/calls`)).toMatchObject({
      kind: 'unreachable',
      message: 'Provider could not be reached (ECONNREFUSED)',
      provesNothingDone: true,
    });
    expect(await send(`${base}/throttled`)).toMatchObject({
      kind: 'rate_limited',
      facts: { retryAfterSeconds: 7 },
      provesNothingDone: true,
    });
    expect(await send(`${base}/down`)).toMatchObject({
      kind: 'upstream',
      provesNothingDone: false,
    });
  });
});
