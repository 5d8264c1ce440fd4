import type { InboundMediaEvent } from './media-stream';
import {
  mediaMessage,
  type MessageSink,
  objectAt,
  audioEvent,
  dtmfEvent,
  markEvent,
  type ProviderStream,
  stringAt,
} from './provider-stream';

/**
 * The `extraHeaders` of Plivo's <Stream>, as its start event carries them: an object, a JSON
 * object in a string, or the attribute's own `k=v` list (`,` or `;` separated).
 */
export function plivoExtraHeaders(value: unknown): Record<string, string> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return Object.fromEntries(
      Object.entries(value).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  if (typeof value !== 'string') return {};
  if (value.trimStart().startsWith('{')) {
    try {
      return plivoExtraHeaders(JSON.parse(value));
    } catch {
      return {};
    }
  }
  const headers: Record<string, string> = {};
  for (const pair of value.split(/[,;]/)) {
    const at = pair.indexOf('=');
    if (at > 0) headers[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return headers;
}

/**
 * provider_one (Plivo bidirectional audio streams): `start` {streamId, callId} with the
 * extraHeaders (`k=v` pairs, as the <Stream> attribute gave them), `media`, `playedStream` (a
 * checkpoint reached), `clearedAudio`, `stop`.
 * Outbound: playAudio, checkpoint, clearAudio, each naming the streamId.
 */
export class PlivoStream implements ProviderStream {
  private streamId = '';
  private media = this.mediaFor('');

  constructor(private readonly sink: MessageSink) {}

  read(message: Record<string, unknown>): InboundMediaEvent | null {
    switch (message.event) {
      case 'start': {
        const start = objectAt(message, 'start');
        this.streamId = stringAt(start, 'streamId') ?? stringAt(message, 'streamId') ?? '';
        this.media = this.mediaFor(this.streamId);
        const headers = plivoExtraHeaders(message.extra_headers ?? start.extraHeaders);
        return {
          kind: 'start',
          streamId: this.streamId,
          providerCallId: stringAt(start, 'callId') ?? '',
          token: headers.token,
        };
      }
      case 'media':
        return audioEvent(message);
      // `played` is the name older Plivo documents give the checkpoint's answer.
      case 'playedStream':
      case 'played':
        return markEvent(stringAt(message, 'name'));
      case 'clearedAudio':
        return { kind: 'cleared' };
      case 'dtmf':
        return dtmfEvent(message);
      case 'stop':
        return { kind: 'stop' };
      default:
        return null;
    }
  }

  sendAudio(ulaw: Buffer): void {
    this.sink.send(this.media(ulaw));
  }

  sendMark(name: string): void {
    this.sink.send(JSON.stringify({ event: 'checkpoint', streamId: this.streamId, name }));
  }

  clear(): void {
    this.sink.send(JSON.stringify({ event: 'clearAudio', streamId: this.streamId }));
  }

  close(refused?: boolean): void {
    this.sink.close(refused);
  }

  private mediaFor(streamId: string) {
    return mediaMessage({
      event: 'playAudio',
      streamId,
      media: { contentType: 'audio/x-mulaw', sampleRate: 8000, payload: '' },
    });
  }
}
