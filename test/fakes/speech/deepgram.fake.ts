import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { cutAt, type Fault } from '../faults';
import { WebSocketFake } from './websocket-fake';

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
 * scripted transcript as an `is_final` result marked `from_finalize`. Faults: `latency` delays
 * each Finalize's answer, `hang` never answers one, `cut` and `close` end the socket once
 * `afterBytes` of audio have come.
 */
export class DeepgramFake extends WebSocketFake {
  readonly streams: DeepgramStream[] = [];
  transcripts: string[] = [];
  /** The interim result's words. */
  interim = 'interim words';

  constructor(private readonly apiKey: string) {
    super();
  }

  protected accept(req: IncomingMessage, url: URL) {
    if (url.pathname !== '/v1/listen') return 404;
    if (req.headers.authorization !== `Token ${this.apiKey}`) return 401;
    const query = url.searchParams;
    if (query.get('encoding') !== 'mulaw' || query.get('sample_rate') !== '8000') return 400;
    return (ws: WebSocket, fault: Fault | undefined) => this.serve(ws, query, fault);
  }

  private serve(ws: WebSocket, query: URLSearchParams, fault: Fault | undefined): void {
    const stream: DeepgramStream = { query, audioBytes: 0, controls: [], closed: false };
    this.streams.push(stream);
    let interimSent = false;
    let ended = false;
    ws.on('message', (data: Buffer, isBinary) => {
      // What was already on its way when the service dropped the socket goes unheard.
      if (ended) return;
      if (isBinary) {
        stream.audioBytes += data.length;
        if (stream.audioBytes >= cutAt(fault)) {
          ended = true;
          if (fault?.kind === 'close') ws.close(fault.code ?? 1011, 'fault');
          else ws.terminate();
          return;
        }
        if (!interimSent && stream.audioBytes >= 8000) {
          interimSent = true;
          ws.send(results(this.interim, { is_final: false }));
        }
        return;
      }
      const message = JSON.parse(data.toString('utf8')) as { type: string };
      stream.controls.push(message.type);
      if (message.type === 'Finalize' && fault?.kind !== 'hang') {
        const answer = results(this.transcripts.shift() ?? '', {
          is_final: true,
          from_finalize: true,
        });
        if (fault?.kind === 'latency') setTimeout(() => ws.send(answer), fault.ms);
        else ws.send(answer);
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
