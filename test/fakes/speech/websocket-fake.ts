import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { FakeServer } from './listen';

/**
 * A fake streaming speech service: an HTTP server that only upgrades. `accept` checks the
 * upgrade request as the real service does and returns the session to serve, or refuses it
 * with the HTTP status the service answers (401 for a wrong key, 400 for a wrong format).
 */
export abstract class WebSocketFake {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly fake = new FakeServer((_req, res) => {
    res.writeHead(404).end();
  });

  constructor() {
    this.fake.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const accepted = this.accept(req, url);
      if (typeof accepted === 'number') return refuse(socket, accepted);
      this.wss.handleUpgrade(req, socket, head, accepted);
    });
  }

  protected abstract accept(req: IncomingMessage, url: URL): number | ((ws: WebSocket) => void);

  listen(): Promise<string> {
    return this.fake.listen();
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await this.fake.close();
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
};

function refuse(socket: Duplex, status: number): void {
  const text = STATUS_TEXT[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
