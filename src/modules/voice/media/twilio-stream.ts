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
 * provider_two (Twilio Media Streams): `connected`, `start` {streamSid, callSid,
 * customParameters}, `media`, `mark` (echoed once played), `stop`. Outbound messages carry the
 * streamSid; `clear` drops Twilio's buffer.
 */
export class TwilioStream implements ProviderStream {
  private streamSid = '';
  private media = this.mediaFor('');

  constructor(private readonly sink: MessageSink) {}

  read(message: Record<string, unknown>): InboundMediaEvent | null {
    switch (message.event) {
      case 'start': {
        const start = objectAt(message, 'start');
        this.streamSid = stringAt(start, 'streamSid') ?? stringAt(message, 'streamSid') ?? '';
        this.media = this.mediaFor(this.streamSid);
        return {
          kind: 'start',
          streamId: this.streamSid,
          providerCallId: stringAt(start, 'callSid') ?? '',
          token: stringAt(objectAt(start, 'customParameters'), 'token'),
        };
      }
      case 'media':
        return audioEvent(message);
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
    this.sink.send(this.media(ulaw));
  }

  sendMark(name: string): void {
    this.sink.send(JSON.stringify({ event: 'mark', streamSid: this.streamSid, mark: { name } }));
  }

  clear(): void {
    this.sink.send(JSON.stringify({ event: 'clear', streamSid: this.streamSid }));
  }

  close(refused?: boolean): void {
    this.sink.close(refused);
  }

  private mediaFor(streamSid: string) {
    return mediaMessage({ event: 'media', streamSid, media: { payload: '' } });
  }
}
