import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendRequest } from './outbound-request';

describe('sendRequest', () => {
  let server: Server;
  let base: string;
  const seen: { method?: string; headers: Record<string, unknown>; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({
          method: req.method,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        if (req.url === '/json') return res.writeHead(201, { 'x-id': 'a1' }).end('{"ok":true}');
        if (req.url === '/text') return res.writeHead(400).end('not json');
        res.writeHead(200).write('first ');
        if (req.url === '/slow') setTimeout(() => res.end('last'), 1_000);
        else res.end('last');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('sends the method, headers and body, and reads status, headers and JSON', async () => {
    const response = await sendRequest(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect([response.status, response.ok, response.header('X-Id')]).toEqual([201, true, 'a1']);
    await expect(response.json()).resolves.toEqual({ ok: true });
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-length': '7', 'content-type': 'application/json' },
    });
  });

  it('gives undefined for a body that is not JSON', async () => {
    const response = await sendRequest(`${base}/text`, { method: 'GET' });
    expect([response.status, response.ok]).toEqual([400, false]);
    await expect(response.json()).resolves.toBeUndefined();
  });

  it('streams the body chunk by chunk', async () => {
    const response = await sendRequest(`${base}/stream`, { method: 'GET' });
    const chunks: string[] = [];
    for await (const chunk of response.body) chunks.push(chunk.toString());
    expect(chunks.join('')).toBe('first last');
  });

  it('ends a body being read with an AbortError when the signal aborts', async () => {
    const controller = new AbortController();
    const response = await sendRequest(`${base}/slow`, {
      method: 'GET',
      signal: controller.signal,
    });
    const reader = response.body[Symbol.asyncIterator]();
    expect((await reader.next()).value?.toString()).toBe('first ');
    setTimeout(() => controller.abort(), 20);
    await expect(reader.next()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects with an AbortError when aborted before the answer, or already aborted', async () => {
    const controller = new AbortController();
    const pending = sendRequest(`${base}/slow`, { method: 'GET', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(
      sendRequest(`${base}/json`, { method: 'GET', signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('takes an abort after the body arrived unread without an uncaught error', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const controller = new AbortController();
      const response = await sendRequest(`${base}/stream`, {
        method: 'GET',
        signal: controller.signal,
      });
      await response.body[Symbol.asyncIterator]().next();
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', record);
    }
    expect(uncaught).toEqual([]);
  });
});
