import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { cutAt, type Fault } from '../faults';
import { WebSocketFake } from './websocket-fake';

/** One stream-input session as the fake saw it. */
export interface ElevenLabsStream {
  voice: string;
  query: URLSearchParams;
  /** Every JSON message the client sent, in order. */
  messages: Record<string, unknown>[];
  /** Whether the client closed before the fake sent isFinal. */
  closedEarly: boolean;
}

/**
 * ElevenLabs input streaming: `wss://…/v1/text-to-speech/{voice}/stream-input?model_id=…&
 * output_format=ulaw_8000`. The first message carries `xi_api_key` (a wrong one gets an error
 * message and a 1008 close); `{text: ""}` ends the input, then the audio comes back as base64
 * chunks of μ-law (each byte is its index mod 256, so tests can check order), then `isFinal`.
 * With `sync_alignment=true` each chunk carries the alignment of the characters whose sound
 * starts in it (the text's characters spread evenly over the audio), in ms from that chunk's
 * own start, as ElevenLabs times them.
 * Faults: `latency` delays the first audio, `hang` never sends any, `cut` and `close` end the
 * socket once `afterBytes` of audio have gone out; `garbledAlignment` sends every chunk's
 * alignment after the first with its times backwards and no durations.
 */
export class ElevenLabsFake extends WebSocketFake {
  readonly streams: ElevenLabsStream[] = [];
  /** μ-law bytes per utterance, sent in chunks of `chunkBytes`, one every `paceMs`. */
  audioBytes = 4000;
  chunkBytes = 800;
  paceMs = 0;
  garbledAlignment = false;

  constructor(private readonly apiKey: string) {
    super();
  }

  protected accept(_req: IncomingMessage, url: URL) {
    const match = /^\/v1\/text-to-speech\/([^/]+)\/stream-input$/.exec(url.pathname);
    if (!match) return 404;
    if (url.searchParams.get('output_format') !== 'ulaw_8000') return 400;
    return (ws: WebSocket, fault: Fault | undefined) =>
      this.serve(ws, decodeURIComponent(match[1]), url.searchParams, fault);
  }

  private serve(
    ws: WebSocket,
    voice: string,
    query: URLSearchParams,
    fault: Fault | undefined,
  ): void {
    const stream: ElevenLabsStream = { voice, query, messages: [], closedEarly: false };
    this.streams.push(stream);
    let finished = false;
    ws.on('close', () => (stream.closedEarly = !finished));
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
      stream.messages.push(message);
      if (stream.messages.length === 1 && message.xi_api_key !== this.apiKey) {
        finished = true;
        ws.send(
          JSON.stringify({ message: 'Invalid API key', error: 'invalid_api_key', code: 1008 }),
        );
        return ws.close(1008, 'invalid_api_key');
      }
      if (message.text === '' && stream.messages.length > 1) {
        const text = stream.messages
          .slice(1)
          .map((sent) => (typeof sent.text === 'string' ? sent.text : ''))
          .join('')
          .trimEnd();
        const aligned = query.get('sync_alignment') === 'true' ? text : null;
        void this.speak(ws, fault, aligned).then(() => (finished = true));
      }
    });
  }

  private async speak(ws: WebSocket, fault: Fault | undefined, text: string | null): Promise<void> {
    const chars = [...(text ?? '')];
    const totalMs = this.audioBytes / 8;
    const charMs = chars.length > 0 ? totalMs / chars.length : 0;
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'latency') await new Promise((r) => setTimeout(r, fault.ms));
    const audio = Buffer.from(Array.from({ length: this.audioBytes }, (_, i) => i % 256));
    for (let offset = 0; offset < audio.length; offset += this.chunkBytes) {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (offset >= cutAt(fault)) {
        if (fault?.kind === 'close') ws.close(fault.code ?? 1011, 'fault');
        else ws.terminate();
        return;
      }
      const chunk = audio.subarray(offset, offset + this.chunkBytes);
      const [fromMs, toMs] = [offset / 8, (offset + chunk.length) / 8];
      const starts = chars
        .map((char, i) => ({ char, at: i * charMs }))
        .filter(({ at }) => at >= fromMs && at < toMs);
      const garbled = this.garbledAlignment && offset > 0;
      const alignment =
        text === null
          ? null
          : {
              chars: starts.map(({ char }) => char),
              charStartTimesMs: starts.map(({ at }) =>
                garbled ? Math.round(toMs - at) : Math.round(at - fromMs),
              ),
              charsDurationsMs: garbled ? [] : starts.map(() => Math.round(charMs)),
            };
      ws.send(JSON.stringify({ audio: chunk.toString('base64'), isFinal: null, alignment }));
      if (this.paceMs > 0) await new Promise((r) => setTimeout(r, this.paceMs));
    }
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ audio: null, isFinal: true }));
  }
}
