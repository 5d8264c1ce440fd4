import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Fault, Faults } from '../faults';
import { FakeServer } from './listen';

/** The session of one accepted socket, given the fault it is to meet (if any). */
export type SocketSession = (ws: WebSocket, fault: Fault | undefined) => void;

/**
 * A fake streaming speech service: an HTTP server that only upgrades. `accept` checks the
 * upgrade request as the real service does and returns the session to serve, or refuses it
 * with the HTTP status the service answers (401 for a wrong key, 400 for a wrong format).
 * `faults` applies to connections: a status refuses the upgrade, the others go to the session.
 */
export abstract class WebSocketFake {
  readonly faults = new Faults();
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly fake = new FakeServer((_req, res) => {
    res.writeHead(404).end();
  });

  constructor() {
    this.fake.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const accepted = this.accept(req, url);
      if (typeof accepted === 'number') return refuse(socket, accepted);
      const fault = this.faults.take();
      if (fault?.kind === 'status') return refuse(socket, fault.status, fault.retryAfterSeconds);
      this.wss.handleUpgrade(req, socket, head, (ws) => accepted(ws, fault));
    });
  }

  protected abstract accept(req: IncomingMessage, url: URL): number | SocketSession;

  listen(): Promise<string> {
    return this.fake.listen();
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await this.fake.close();
  }
}

function refuse(socket: Duplex, status: number, retryAfterSeconds?: number): void {
  const text = STATUS_CODES[status] ?? 'Error';
  const retryAfter = retryAfterSeconds === undefined ? '' : `Retry-After: ${retryAfterSeconds}\r\n`;
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\n${retryAfter}Connection: close\r\nContent-Length: 0\r\n\r\n`,
  );
}
