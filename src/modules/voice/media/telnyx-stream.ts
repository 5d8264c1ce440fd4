import { alawToUlaw } from '../audio/g711';
import { FrameOrder } from './frame-order';
import type { InboundMediaEvent } from './media-stream';
import {
  mediaMessage,
  type MessageSink,
  dtmfEvent,
  markEvent,
  objectAt,
  payloadOf,
  type ProviderStream,
  stringAt,
} from './provider-stream';

const TELNYX_MEDIA = mediaMessage({ event: 'media', media: { payload: '' } });

/**
 * provider_three (Telnyx media streaming): `connected`, `start` {call_control_id, media_format},
 * `media`, `mark` (echoed once played), `stop`. The token came in the stream URL's query. A PCMA
 * leg is decoded to μ-law here; what we send is PCMU, as streaming_start asked. Media may come
 * out of order or twice: frames are put back in the order of their `chunk` numbers (FrameOrder).
 */
export class TelnyxStream implements ProviderStream {
  private alaw = false;
  private readonly order = new FrameOrder();

  constructor(
    private readonly sink: MessageSink,
    private readonly urlToken: string | undefined,
  ) {}

  read(message: Record<string, unknown>): InboundMediaEvent | InboundMediaEvent[] | null {
    switch (message.event) {
      case 'start': {
        const start = objectAt(message, 'start');
        this.alaw = stringAt(objectAt(start, 'media_format'), 'encoding') === 'PCMA';
        return {
          kind: 'start',
          streamId: stringAt(message, 'stream_id') ?? '',
          providerCallId: stringAt(start, 'call_control_id') ?? '',
          token: this.urlToken,
        };
      }
      case 'media': {
        const media = objectAt(message, 'media');
        const track = stringAt(media, 'track');
        const payload = payloadOf(message);
        if (!payload || (track !== undefined && track !== 'inbound')) return null;
        const ulaw = this.alaw ? alawToUlaw(payload) : payload;
        const chunk = Number(media.chunk);
        if (!Number.isSafeInteger(chunk)) return { kind: 'audio', ulaw };
        return this.order
          .push(chunk, ulaw)
          .map((frame): InboundMediaEvent => ({ kind: 'audio', ulaw: frame }));
      }
      case 'mark':
        return markEvent(stringAt(objectAt(message, 'mark'), 'name'));
      case 'dtmf':
        return dtmfEvent(message);
      case 'stop':
        return { kind: 'stop' };
      default:
        return null;
    }
  }

  sendAudio(ulaw: Buffer): void {
    this.sink.send(TELNYX_MEDIA(ulaw));
  }

  sendMark(name: string): void {
    this.sink.send(JSON.stringify({ event: 'mark', mark: { name } }));
  }

  clear(): void {
    this.sink.send(JSON.stringify({ event: 'clear' }));
  }

  close(refused?: boolean): void {
    this.sink.close(refused);
  }
}
