import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { ULAW_SILENCE } from '../../src/modules/voice/audio/paced-stream';
import { FRAME_BYTES } from '../../src/modules/voice/media/media-stream';
import type { Integration } from '../../src/modules/telephony/telephony.types';

/** Where the answer instructions told the provider to stream, and the token it must present. */
export interface StreamInstructions {
  url: string;
  token: string;
  /**
   * How the stream's `start` names the call, where the fake knows it and it is not the id the
   * call was placed by (Plivo: the CallUUID, where `POST Call/` returned a request_uuid).
   */
  callId?: string;
}

const attribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
/** The text an XML attribute or element stands for. */
export const unescapeXml = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Twilio reads <Connect><Stream url><Parameter name value/></Stream></Connect>. */
export function twimlStream(twiml: string): StreamInstructions {
  const stream = /<Connect><Stream\b[^>]*>/.exec(twiml)?.[0];
  const parameter = /<Parameter\b[^>]*name="token"[^>]*\/>/.exec(twiml)?.[0];
  if (!stream || !parameter) throw new Error(`no <Connect><Stream> in ${twiml}`);
  return {
    url: unescapeXml(attribute(stream, 'url')!),
    token: unescapeXml(attribute(parameter, 'value')!),
  };
}

/** Plivo reads <Stream bidirectional extraHeaders="k=v">url</Stream>. */
export function plivoXmlStream(xml: string): StreamInstructions & { attributes: string } {
  const match = /<Stream\b([^>]*)>([^<]*)<\/Stream>/.exec(xml);
  if (!match) throw new Error(`no <Stream> in ${xml}`);
  const headers = unescapeXml(attribute(match[1], 'extraHeaders') ?? '');
  return {
    url: unescapeXml(match[2]),
    token: /(?:^|,)token=([^,]*)/.exec(headers)?.[1] ?? '',
    attributes: match[1],
  };
}

/** Telnyx connects to streaming_start's stream_url as given, query included. */
export function telnyxStream(body: { stream_url: string }): StreamInstructions {
  return { url: body.stream_url, token: new URL(body.stream_url).searchParams.get('token') ?? '' };
}

export interface ReceivedFrame {
  at: number;
  audio: Buffer;
}

/**
 * The provider's side of a media stream: connects where the instructions say, sends its own
 * first messages, keeps every agent frame with its arrival time, and reports a mark as played
 * when it arrives (the audio before it arrived in real time, so it has been heard).
 */
export class MediaStreamCaller {
  readonly frames: ReceivedFrame[] = [];
  readonly marks: Array<{ at: number; name: string }> = [];
  /** When each `clear` (barge-in: drop the buffered audio) arrived. */
  readonly clears: number[] = [];
  readonly received: Array<Record<string, unknown>> = [];
  startedAt = 0;
  closeCode: number | undefined;
  readonly closed: Promise<number>;
  readonly streamId = randomUUID();
  private chunk = 0;

  private constructor(
    readonly integration: Integration,
    private readonly socket: WebSocket,
  ) {
    this.closed = new Promise((resolve) =>
      socket.on('close', (code) => {
        this.closeCode = code;
        resolve(code);
      }),
    );
    socket.on('message', (data) =>
      this.onMessage(
        JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as Record<string, unknown>,
      ),
    );
  }

  static connect(integration: Integration, url: string): Promise<MediaStreamCaller> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new MediaStreamCaller(integration, socket)));
      socket.once('error', reject);
    });
  }

  /** The provider's opening messages, the token where this provider carries it. */
  start(callId: string, token: string, encoding: 'PCMU' | 'PCMA' = 'PCMU'): void {
    this.startedAt = performance.now();
    switch (this.integration) {
      case 'provider_two':
        this.send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
        this.send({
          event: 'start',
          sequenceNumber: '1',
          streamSid: this.streamId,
          start: {
            streamSid: this.streamId,
            accountSid: 'AC0000',
            callSid: callId,
            tracks: ['inbound'],
            customParameters: { token },
            mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
          },
        });
        return;
      case 'provider_one':
        this.send({
          event: 'start',
          sequenceNumber: 0,
          start: {
            callId,
            streamId: this.streamId,
            accountId: 'MA0000',
            tracks: ['inbound'],
            mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000 },
          },
          // As Plivo sends the <Stream extraHeaders> (its reference shows `;` between pairs).
          extra_headers: `token=${token}`,
        });
        return;
      case 'provider_three':
        this.send({ event: 'connected', version: '1.0.0' });
        this.send({
          event: 'start',
          sequence_number: '1',
          stream_id: this.streamId,
          start: {
            call_control_id: callId,
            client_state: null,
            media_format: { encoding: encoding, sample_rate: 8000, channels: 1 },
          },
        });
        return;
    }
  }

  /**
   * Plays `audio` into the stream at real time, 20 ms a message (the last frame padded with
   * silence), then `trailingMs` of silence, as the provider streams what the caller says.
   * Returns when the first frame and the last frame of the audio itself were sent.
   */
  async play(audio: Buffer, trailingMs = 1_200): Promise<{ startedAt: number; endedAt: number }> {
    const frames: Buffer[] = [];
    for (let at = 0; at < audio.length; at += FRAME_BYTES) {
      const frame = Buffer.alloc(FRAME_BYTES, ULAW_SILENCE);
      audio.copy(frame, 0, at, Math.min(at + FRAME_BYTES, audio.length));
      frames.push(frame);
    }
    const spoken = frames.length;
    for (let i = 0; i < trailingMs / 20; i++) frames.push(Buffer.alloc(FRAME_BYTES, ULAW_SILENCE));
    const startedAt = performance.now();
    let endedAt = startedAt;
    for (const [i, frame] of frames.entries()) {
      this.sendAudio(frame);
      if (i === spoken - 1) endedAt = performance.now();
      const due = startedAt + (i + 1) * 20;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
    return { startedAt, endedAt };
  }

  /**
   * 20 ms of caller audio in the provider's media message, numbered `chunk` — by default the
   * next of the stream, as providers number a stream's media from 1 without restarting.
   */
  sendAudio(audio: Buffer, chunk = this.chunk + 1): void {
    this.chunk = Math.max(this.chunk, chunk);
    this.send({
      event: 'media',
      ...this.streamField(),
      media: {
        track: 'inbound',
        chunk: String(chunk),
        timestamp: String(chunk * 20),
        payload: audio.toString('base64'),
      },
    });
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  close(): void {
    this.socket.close();
  }

  private streamField(): Record<string, string> {
    if (this.integration === 'provider_two') return { streamSid: this.streamId };
    if (this.integration === 'provider_three') return { stream_id: this.streamId };
    return { streamId: this.streamId };
  }

  private onMessage(message: Record<string, unknown>): void {
    const at = performance.now();
    this.received.push(message);
    const payload = (message.media as { payload?: string } | undefined)?.payload;
    switch (message.event) {
      case 'clear':
        this.clears.push(at);
        return;
      case 'clearAudio':
        this.clears.push(at);
        this.send({ event: 'clearedAudio', streamId: this.streamId });
        return;
      case 'media':
      case 'playAudio':
        if (payload) this.frames.push({ at, audio: Buffer.from(payload, 'base64') });
        return;
      case 'mark': {
        const name = (message.mark as { name: string }).name;
        this.marks.push({ at, name });
        this.send({ event: 'mark', ...this.streamField(), mark: { name } });
        return;
      }
      case 'checkpoint': {
        const name = message.name as string;
        this.marks.push({ at, name });
        this.send({ event: 'playedStream', streamId: this.streamId, name });
        return;
      }
    }
  }
}
