import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { FakeServer } from './listen';

/** One /v1/listen stream as the fake saw it. */
export interface DeepgramStream {
  query: URLSearchParams;
  audioBytes: number;
  /** The JSON control messages in order: KeepAlive, Finalize, CloseStream. */
  controls: string[];
  closed: boolean;
}

/**
 * Deepgram live transcription: `wss://…/v1/listen?…` with `Authorization: Token <key>` (401
 * before the upgrade otherwise; 400 for an encoding it cannot read). Audio is binary frames;
 * an interim result follows the first second of audio, and each `Finalize` gets the next
 * scripted transcript as an `is_final` result marked `from_finalize`.
 */
export class DeepgramFake {
  readonly streams: DeepgramStream[] = [];
  transcripts: string[] = [];
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly fake = new FakeServer((_req, res) => {
    res.writeHead(404).end();
  });

  constructor(private readonly apiKey: string) {
    this.fake.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  listen(): Promise<string> {
    return this.fake.listen();
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await this.fake.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== '/v1/listen') return refuse(socket, 404, 'Not Found');
    if (req.headers.authorization !== `Token ${this.apiKey}`) {
      return refuse(socket, 401, 'Unauthorized');
    }
    const query = url.searchParams;
    if (query.get('encoding') !== 'mulaw' || query.get('sample_rate') !== '8000') {
      return refuse(socket, 400, 'Bad Request');
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.serve(ws, query));
  }

  private serve(ws: WebSocket, query: URLSearchParams): void {
    const stream: DeepgramStream = { query, audioBytes: 0, controls: [], closed: false };
    this.streams.push(stream);
    let interimSent = false;
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        stream.audioBytes += data.length;
        if (!interimSent && stream.audioBytes >= 8000) {
          interimSent = true;
          ws.send(results('interim words', { is_final: false }));
        }
        return;
      }
      const message = JSON.parse(data.toString('utf8')) as { type: string };
      stream.controls.push(message.type);
      if (message.type === 'Finalize') {
        ws.send(results(this.transcripts.shift() ?? '', { is_final: true, from_finalize: true }));
      }
      if (message.type === 'CloseStream') ws.close(1000);
    });
    ws.on('close', () => (stream.closed = true));
  }
}

function results(transcript: string, flags: { is_final: boolean; from_finalize?: boolean }) {
  return JSON.stringify({
    type: 'Results',
    channel_index: [0, 1],
    duration: 1,
    start: 0,
    ...flags,
    speech_final: flags.is_final,
    channel: { alternatives: [{ transcript, confidence: 0.98, words: [] }] },
  });
}

export function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
