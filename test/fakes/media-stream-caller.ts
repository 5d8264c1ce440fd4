import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { decodeUlaw } from '../../src/modules/voice/audio/g711';
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

/** An attribute of the first `<element>` of an XML document, unescaped; undefined when absent. */
export function elementAttribute(xml: string, element: string, name: string): string | undefined {
  const tag = new RegExp(`<${element}\\b[^>]*>`).exec(xml)?.[0];
  const value = tag ? attribute(tag, name) : undefined;
  return value === undefined ? undefined : unescapeXml(value);
}

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

/** An agent frame as it arrived; its audio is decoded only when a test reads it. */
export class ReceivedFrame {
  constructor(
    readonly at: number,
    private readonly payload: string,
  ) {}

  get audio(): Buffer {
    return Buffer.from(this.payload, 'base64');
  }
}

/** Root mean square of the frames' samples: speech is loud, μ-law silence is zero. */
export function loudness(frames: ReceivedFrame[]): number {
  const samples = decodeUlaw(Buffer.concat(frames.map((frame) => frame.audio)));
  return Math.sqrt(samples.reduce((sum, sample) => sum + sample * sample, 0) / samples.length);
}

export interface CallerOptions {
  /**
   * Keep every message received in `received` (the default). A load generator playing many
   * callers turns it off: it reads only `frames`, `marks` and `clears`.
   */
  keepMessages?: boolean;
  /**
   * Send silence every 20 ms between the test's own frames, once it sent its first, as every
   * provider streams the caller's track continuously (the default). A load generator that sends
   * every 20 ms itself turns it off.
   */
  fillSilence?: boolean;
  /**
   * Send the caller's first frame (silence) right after `start`, as providers do once the media
   * path is up (the default). Off: the stream carries nothing until the test sends.
   */
  mediaAtStart?: boolean;
}

const SILENCE_FRAME = Buffer.alloc(FRAME_BYTES, ULAW_SILENCE);

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
  /** performance.now() of the last media message sent other than the filler's silence. */
  private lastSentAt = 0;
  /** play() calls under way: the filler keeps out of their way. */
  private playing = 0;
  private filler: NodeJS.Timeout | undefined;
  /** Fault: nothing at all is sent any more (a half-open or stalled stream). */
  private silent = false;
  /** A media message's text up to its chunk number: all but the number and payload is fixed. */
  private readonly mediaHead: string;

  private constructor(
    readonly integration: Integration,
    private readonly socket: WebSocket,
    private readonly options: CallerOptions,
  ) {
    const head = JSON.stringify({
      event: 'media',
      ...this.streamField(),
      media: { track: 'inbound' },
    });
    this.mediaHead = `${head.slice(0, -2)},"chunk":"`;
    this.closed = new Promise((resolve) =>
      socket.on('close', (code) => {
        this.closeCode = code;
        clearInterval(this.filler);
        resolve(code);
      }),
    );
    // The server sends text: one Buffer per message, read where it lies.
    socket.on('message', (data) =>
      this.onMessage(JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>),
    );
  }

  static connect(
    integration: Integration,
    url: string,
    options: CallerOptions = {},
  ): Promise<MediaStreamCaller> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new MediaStreamCaller(integration, socket, options)));
      socket.once('error', reject);
    });
  }

  /**
   * The provider's opening messages, the token where this provider carries it, and the first
   * frame of the caller's track (CallerOptions.mediaAtStart).
   */
  start(callId: string, token: string, encoding: 'PCMU' | 'PCMA' = 'PCMU'): void {
    this.startedAt = performance.now();
    this.sendStart(callId, token, encoding);
    if (this.options.mediaAtStart !== false) this.sendFrame(SILENCE_FRAME);
  }

  private sendStart(callId: string, token: string, encoding: 'PCMU' | 'PCMA'): void {
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
    this.playing += 1;
    try {
      for (const [i, frame] of frames.entries()) {
        this.sendAudio(frame);
        if (i === spoken - 1) endedAt = performance.now();
        const due = startedAt + (i + 1) * 20;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      }
    } finally {
      this.playing -= 1;
    }
    return { startedAt, endedAt };
  }

  /**
   * 20 ms of caller audio in the provider's media message, numbered `chunk` — by default the
   * next of the stream, as providers number a stream's media from 1 without restarting.
   */
  sendAudio(audio: Buffer, chunk = this.chunk + 1): void {
    this.lastSentAt = performance.now();
    this.fillFromNowOn();
    this.sendFrame(audio, chunk);
  }

  /**
   * From the caller's first frame on, silence every 20 ms whenever the test has sent nothing for
   * 200 ms (never inside an utterance whose timers run late). Not before: a VAD that heard only
   * the caller's first words so far is what the turn-taking tests were tuned on.
   */
  private fillFromNowOn(): void {
    if (this.filler || this.options.fillSilence === false) return;
    this.filler = setInterval(() => {
      const idle = this.playing === 0 && performance.now() - this.lastSentAt >= 200;
      if (idle && this.socket.readyState === WebSocket.OPEN) this.sendFrame(SILENCE_FRAME);
    }, 20);
  }

  private sendFrame(audio: Buffer, chunk = this.chunk + 1): void {
    this.sendPayloadText(audio.toString('base64'), chunk);
  }

  /** `sendAudio` of a frame already in base64: a load generator encodes its frames once. */
  sendPayload(payload: string, chunk = this.chunk + 1): void {
    this.lastSentAt = performance.now();
    this.fillFromNowOn();
    this.sendPayloadText(payload, chunk);
  }

  private sendPayloadText(payload: string, chunk: number): void {
    if (this.silent) return;
    this.chunk = Math.max(this.chunk, chunk);
    // What JSON.stringify gives for { event, <stream id>, media: { track, chunk, timestamp,
    // payload } }, without building the object for every 20 ms frame.
    this.socket.send(
      `${this.mediaHead}${chunk}","timestamp":"${chunk * 20}","payload":"${payload}"}}`,
    );
  }

  sendRaw(data: string | Buffer): void {
    this.socket.send(data);
  }

  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  close(): void {
    clearInterval(this.filler);
    this.socket.close();
  }

  /** The callee presses a key: the provider's `dtmf` message (Twilio's names the track). */
  pressKey(key: string): void {
    const dtmf =
      this.integration === 'provider_two' ? { track: 'inbound_track', digit: key } : { digit: key };
    this.send({ event: 'dtmf', ...this.streamField(), dtmf });
  }

  /** The callee hung up: the provider's `stop`, then the socket closes. */
  hangUp(): void {
    clearInterval(this.filler);
    if (this.socket.readyState === WebSocket.OPEN) {
      this.send({ event: 'stop', ...this.streamField() });
      this.socket.close();
    }
  }

  /**
   * Fault: the stream goes quiet — no caller audio, no answer to marks — while the socket stays
   * open (a provider or network that stalled: a half-open stream).
   */
  goQuiet(): void {
    this.silent = true;
    clearInterval(this.filler);
  }

  private streamField(): Record<string, string> {
    if (this.integration === 'provider_two') return { streamSid: this.streamId };
    if (this.integration === 'provider_three') return { stream_id: this.streamId };
    return { streamId: this.streamId };
  }

  private onMessage(message: Record<string, unknown>): void {
    const at = performance.now();
    if (this.options.keepMessages !== false) this.received.push(message);
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
        if (payload) this.frames.push(new ReceivedFrame(at, payload));
        return;
      case 'mark': {
        const name = (message.mark as { name: string }).name;
        this.marks.push({ at, name });
        if (!this.silent) this.send({ event: 'mark', ...this.streamField(), mark: { name } });
        return;
      }
      case 'checkpoint': {
        const name = message.name as string;
        this.marks.push({ at, name });
        if (!this.silent) this.send({ event: 'playedStream', streamId: this.streamId, name });
        return;
      }
    }
  }
}
