import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { CONNECTIONS_CHECKING_INTERVAL_MS, HEADERS_TIMEOUT_MS } from '../../src/http/http-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/** A raw HTTP/1.1 client: what it sent, what came back, and when the server closed. */
interface RawExchange {
  socket: Socket;
  sent: number;
  received: string;
  closedAt?: number;
  startedAt: number;
}

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

describe('requests refused at the door (real sockets)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  const open = async (): Promise<RawExchange> => {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const exchange: RawExchange = { socket, sent: 0, received: '', startedAt: performance.now() };
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (exchange.received += data));
    socket.on('close', () => (exchange.closedAt = performance.now()));
    // The server may reset a connection it closed while we were still sending.
    socket.on('error', () => undefined);
    return exchange;
  };
  const send = (exchange: RawExchange, data: string | Buffer) => {
    exchange.sent += Buffer.byteLength(data);
    exchange.socket.write(data);
  };
  const statusOf = (exchange: RawExchange) => Number(exchange.received.split(' ', 2)[1]);
  const bodyOf = (exchange: RawExchange) =>
    JSON.parse(exchange.received.slice(exchange.received.indexOf('\r\n\r\n') + 4)) as unknown;

  it('answers a normal request, and keeps the connection open', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' });
    const exchange = await open();
    send(
      exchange,
      head([
        'POST /api/auth/login HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ]) + body,
    );
    await waitFor(() => exchange.received.includes('"code":401'), { what: 'the 401' });
    expect(exchange.closedAt).toBeUndefined();
    exchange.socket.destroy();
  });

  it('answers 413 to a 100 MB Content-Length before any of the body is sent', async () => {
    const exchange = await open();
    send(
      exchange,
      head([
        'POST /api/auth/login HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/json',
        'Content-Length: 104857600',
      ]),
    );
    await waitFor(() => exchange.closedAt, { what: 'the server to close the connection' });
    const elapsedMs = (exchange.closedAt ?? 0) - exchange.startedAt;
    expect(statusOf(exchange)).toBe(413);
    expect(exchange.received.toLowerCase()).toContain('connection: close');
    expect(bodyOf(exchange)).toEqual({
      message: 'Payload too large',
      status: false,
      code: 413,
      errorMessage: 'Request body too large',
    });
    expect(elapsedMs).toBeLessThan(100);
  });

  it('does not tell a client that expects 100-continue to send an oversized body', async () => {
    const exchange = await open();
    send(
      exchange,
      head([
        'POST /api/users HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/json',
        'Content-Length: 104857600',
        'Expect: 100-continue',
      ]),
    );
    await waitFor(() => exchange.closedAt, { what: 'the server to close the connection' });
    expect(exchange.received).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('lets a multipart upload up to the upload limit through the door', async () => {
    const exchange = await open();
    send(
      exchange,
      head([
        'POST /api/call/batches/000000000000000000000000/contacts HTTP/1.1',
        'Host: localhost',
        'Content-Type: multipart/form-data; boundary=x',
        `Content-Length: ${t.config.storage.uploadMaxBytes + 1024}`,
      ]),
    );
    // Not refused for its size: the next check (no credentials) answers.
    await waitFor(() => exchange.received.includes('\r\n\r\n'), { what: 'an answer' });
    expect(statusOf(exchange)).toBe(401);
    exchange.socket.destroy();
  });

  it('cuts a chunked JSON body at the limit with a prompt 413 and closes the connection', async () => {
    const limit = t.config.http.jsonBodyLimitBytes;
    const exchange = await open();
    send(
      exchange,
      head([
        'POST /api/auth/login HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
      ]),
    );
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const chunk = Buffer.concat([
      Buffer.from(`${piece.length.toString(16)}\r\n`),
      piece,
      Buffer.from('\r\n'),
    ]);
    let overLimitAt: number | undefined;
    // Up to 64 MiB, paced by the socket: stop as soon as the server answers or closes.
    while (exchange.sent < 64 * 1024 * 1024 && !exchange.received && !exchange.closedAt) {
      send(exchange, chunk);
      if (overLimitAt === undefined && exchange.sent > limit) overLimitAt = performance.now();
      if (exchange.socket.writableNeedDrain) {
        await Promise.race([
          new Promise((resolve) => exchange.socket.once('drain', resolve)),
          new Promise((resolve) => exchange.socket.once('close', resolve)),
          new Promise((resolve) => exchange.socket.once('data', resolve)),
        ]);
      }
    }
    await waitFor(() => exchange.closedAt, { what: 'the server to close the connection' });
    expect(statusOf(exchange)).toBe(413);
    expect(exchange.received.toLowerCase()).toContain('connection: close');
    // Socket buffers hold a few MiB at most; a drained body would be all 64.
    expect(exchange.sent).toBeLessThan(limit + 8 * 1024 * 1024);
    expect((exchange.closedAt ?? 0) - (overLimitAt ?? 0)).toBeLessThan(1_000);
  });

  it(
    'closes a connection that sends its headers a byte at a time within the header timeout',
    async () => {
      const exchange = await open();
      const request = head(['GET /health/live HTTP/1.1', 'Host: localhost', 'X-Slow: loris']);
      let index = 0;
      const drip = setInterval(() => {
        if (exchange.closedAt === undefined) send(exchange, request[index++ % request.length]);
      }, 250);
      try {
        const bound = HEADERS_TIMEOUT_MS + CONNECTIONS_CHECKING_INTERVAL_MS + 1_000;
        await waitFor(() => exchange.closedAt, {
          timeoutMs: bound,
          what: 'the connection to close',
        });
      } finally {
        clearInterval(drip);
      }
      expect(statusOf(exchange)).toBe(408);
      expect((exchange.closedAt ?? 0) - exchange.startedAt).toBeLessThan(
        HEADERS_TIMEOUT_MS + CONNECTIONS_CHECKING_INTERVAL_MS + 500,
      );
    },
    HEADERS_TIMEOUT_MS * 2,
  );
});
