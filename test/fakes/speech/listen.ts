import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/** A local HTTP server for a fake speech service; `url` is its base, `/v1` included. */
export class FakeServer {
  readonly server: Server;
  private readonly sockets = new Set<Duplex>();

  constructor(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    this.server = createServer(handler);
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A tone as 16-bit little-endian mono PCM: audio a test can count samples of. */
export function tonePcm(sampleRate: number, milliseconds: number, hz = 440): Buffer {
  const samples = Math.round((sampleRate * milliseconds) / 1000);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / sampleRate)), i * 2);
  }
  return pcm;
}
