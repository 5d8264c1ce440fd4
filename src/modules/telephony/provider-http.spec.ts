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
});
