import WebSocket from 'ws';
import type { SpeechToTextConfig } from '../../../../config';
import type { RecognitionStream, SpeechToText } from '../speech-engines';
import { SpeechServiceError } from '../speech-service-error';
import { messageText, websocketUrl } from '../websocket';

const KEEPALIVE_MS = 5_000;
/**
 * How long `finish` waits for the result of its Finalize before it fails (a backstop: on a live
 * call the failover gives the turn STT_TURN_TIMEOUT_MS in all).
 */
const FINALIZE_TIMEOUT_MS = 3_000;
/** Reconnection after the socket closed or failed: 100 ms, doubling up to 5 s between tries... */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** ...and after this many tries without a word from Deepgram the stream gives up for the call. */
const MAX_RECONNECTS = 12;
/** Audio of one turn kept to be heard again by a new socket: the last 30 s (μ-law 8 kHz). */
const MAX_TURN_BYTES = 30 * 8000;

export interface DeepgramOptions {
  keepAliveMs?: number;
  /** The first reconnection delay (doubled for each further try). */
  reconnectMs?: number;
}

/** Deepgram streaming recognition: μ-law 8 kHz is native, so frames go out as they arrive. */
export class DeepgramSpeechToText implements SpeechToText {
  private readonly options: Required<DeepgramOptions>;

  constructor(
    private readonly config: SpeechToTextConfig,
    options: DeepgramOptions = {},
  ) {
    this.options = {
      keepAliveMs: options.keepAliveMs ?? KEEPALIVE_MS,
      reconnectMs: options.reconnectMs ?? RECONNECT_FIRST_MS,
    };
  }

  open(options: { language: string }): RecognitionStream {
    const url = websocketUrl(this.config.apiUrl, '/listen', {
      encoding: 'mulaw',
      sample_rate: '8000',
      interim_results: 'true',
      endpointing: '300',
      utterance_end_ms: '1000',
      vad_events: 'true',
      model: this.config.model,
      language: options.language,
    });
    return new DeepgramRecognitionStream(url, this.config.apiKey ?? '', this.options);
  }
}

interface DeepgramMessage {
  type?: string;
  is_final?: boolean;
  from_finalize?: boolean;
  channel?: { alternatives?: { transcript?: string }[] };
}

/**
 * The audio of one turn and the words Deepgram has made final of it. The last segment takes
 * the caller's frames; `finish` seals it (a Finalize is sent after its audio) and opens the next.
 */
interface Segment {
  audio: Buffer[];
  bytes: number;
  finals: string[];
  /** Set once sealed: settles when Deepgram has answered its Finalize. */
  finalize?: { resolve(text: string): void; reject(error: Error): void; timer: NodeJS.Timeout };
  /** Its finish gave up (timeout, abort): the answer is dropped when it comes. */
  abandoned?: boolean;
}

/**
 * One call's Deepgram stream. A socket that closes or fails mid-call is opened again (100 ms,
 * doubling to 5 s between tries, up to 12 tries without a word from Deepgram), and the new
 * socket is sent the audio of every turn not yet answered, with their Finalize: the utterance
 * under way is heard whole, a finish waiting for its words gets them from the new socket, and
 * later turns are heard again. A refused stream (the key, the format) is not retried.
 */
class DeepgramRecognitionStream implements RecognitionStream {
  private socket: WebSocket | undefined;
  private connected = false;
  private closed = false;
  /** Why the stream cannot go on for this call: every later finish throws it. */
  private failure: SpeechServiceError | undefined;
  private reconnects = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  /** Sealed turns waiting for their words, oldest first, then the turn under way. */
  private segments: Segment[] = [newSegment()];
  /** The words of the segment under way, revised by each interim result. */
  private interim = '';
  private wordsListener: ((words: string) => void) | undefined;
  private lastSentAt = Date.now();
  private readonly keepAlive: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    private readonly options: Required<DeepgramOptions>,
  ) {
    this.connect();
    // Deepgram closes a stream that hears nothing for 10 s: between turns, say it is still there.
    this.keepAlive = setInterval(() => {
      if (Date.now() - this.lastSentAt >= options.keepAliveMs / 2) {
        this.sendRaw(JSON.stringify({ type: 'KeepAlive' }));
      }
    }, options.keepAliveMs);
    this.keepAlive.unref();
  }

  write(ulaw: Buffer): void {
    if (this.failure || this.closed) return;
    const current = this.current;
    current.audio.push(ulaw);
    current.bytes += ulaw.length;
    while (current.bytes > MAX_TURN_BYTES && current.audio.length > 1) {
      current.bytes -= current.audio.shift()!.length;
    }
    this.sendRaw(ulaw);
  }

  finish(signal?: AbortSignal): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    const segment = this.current;
    if (segment.bytes === 0) {
      // Nothing heard since the last finish: only words already final, without asking.
      const words = segment.finals.join(' ');
      this.reset();
      return Promise.resolve(words);
    }
    this.segments.push(newSegment());
    this.interim = '';
    const words = new Promise<string>((resolve, reject) => {
      const giveUp = (error: Error) => {
        if (segment.abandoned || !this.segments.includes(segment)) return;
        segment.abandoned = true;
        settle(segment);
        reject(error);
        // Deepgram answers each Finalize in order: one that went unanswered means a stuck
        // socket, whose later answers could not be matched to their turns. A new one hears the
        // turns still waiting.
        this.restart();
      };
      segment.finalize = {
        resolve,
        reject,
        timer: setTimeout(
          () => giveUp(new SpeechServiceError('Deepgram did not finalize the turn in time', true)),
          FINALIZE_TIMEOUT_MS,
        ),
      };
      signal?.addEventListener(
        'abort',
        () => giveUp(new SpeechServiceError('Deepgram recognition was aborted')),
        { once: true },
      );
    });
    if (this.connected) this.sendRaw(JSON.stringify({ type: 'Finalize' }));
    else this.reconnectNow(); // a turn is waiting: no back-off
    return words;
  }

  onWords(listener: (words: string) => void): void {
    this.wordsListener = listener;
  }

  reset(): void {
    const current = this.current;
    current.audio = [];
    current.bytes = 0;
    current.finals = [];
    this.interim = '';
  }

  close(): void {
    this.closed = true;
    clearInterval(this.keepAlive);
    clearTimeout(this.reconnectTimer);
    this.failAll(new SpeechServiceError('Deepgram stream was closed'));
    const socket = this.socket;
    this.socket = undefined;
    if (socket?.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: 'CloseStream' }));
      socket.close(1000);
    } else {
      socket?.terminate();
    }
  }

  private get current(): Segment {
    return this.segments[this.segments.length - 1];
  }

  private connect(): void {
    this.reconnectTimer = undefined;
    const socket = new WebSocket(this.url, { headers: { authorization: `Token ${this.apiKey}` } });
    this.socket = socket;
    socket.on('open', () => {
      if (socket !== this.socket) return;
      this.connected = true;
      this.replay();
    });
    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      if (status === 401 || status === 403) {
        this.failure ??= new SpeechServiceError(`Deepgram refused the API key (HTTP ${status})`);
      } else if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        this.failure ??= new SpeechServiceError(`Deepgram refused the stream (HTTP ${status})`);
      }
      socket.terminate();
      this.lost(socket);
    });
    socket.on('error', () => this.lost(socket));
    socket.on('close', () => this.lost(socket));
    socket.on('message', (data, isBinary) => {
      if (socket !== this.socket || isBinary) return;
      this.reconnects = 0;
      this.onMessage(messageText(data));
    });
  }

  /** The new socket hears every turn not yet answered, and the Finalize of each sealed one. */
  private replay(): void {
    for (const segment of this.segments) {
      for (const frame of segment.audio) this.sendRaw(frame);
      if (segment.finalize) this.sendRaw(JSON.stringify({ type: 'Finalize' }));
    }
  }

  private lost(socket: WebSocket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    this.connected = false;
    socket.removeAllListeners('message');
    if (this.closed) return;
    if (this.failure) return this.failAll(this.failure);
    // The words of what was lost come again from its audio on the next socket.
    this.segments = this.segments.filter((segment) => !segment.abandoned);
    for (const segment of this.segments) segment.finals = [];
    this.interim = '';
    this.reconnects += 1;
    if (this.reconnects > MAX_RECONNECTS) {
      this.failure = new SpeechServiceError('Deepgram closed the stream and could not be reached');
      return this.failAll(this.failure);
    }
    const delay = Math.min(
      this.options.reconnectMs * 2 ** (this.reconnects - 1),
      Math.max(RECONNECT_MAX_MS, this.options.reconnectMs),
    );
    // The first try goes at once when a turn is waiting for its words.
    const waiting = this.segments.some((segment) => segment.finalize);
    if (waiting && this.reconnects === 1) return this.connect();
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private restart(): void {
    const socket = this.socket;
    if (!socket) return this.reconnectNow();
    socket.terminate();
    this.lost(socket);
  }

  private reconnectNow(): void {
    if (this.reconnectTimer === undefined || this.closed) return;
    clearTimeout(this.reconnectTimer);
    this.connect();
  }

  private onMessage(text: string): void {
    let message: DeepgramMessage;
    try {
      message = JSON.parse(text) as DeepgramMessage;
    } catch {
      return;
    }
    if (message.type !== 'Results') return;
    const transcript = message.channel?.alternatives?.[0]?.transcript?.trim() ?? '';
    // Results come in the order of the audio: they belong to the oldest turn not yet answered.
    const segment = this.segments[0];
    if (message.is_final) {
      if (transcript) segment.finals.push(transcript);
      this.interim = '';
    } else {
      this.interim = transcript;
    }
    if (message.from_finalize && segment.finalize) {
      this.segments.shift();
      settle(segment);
      if (!segment.abandoned) segment.finalize.resolve(segment.finals.join(' '));
      return;
    }
    this.wordsListener?.([...segment.finals, this.interim].filter(Boolean).join(' '));
  }

  private failAll(error: SpeechServiceError): void {
    for (const segment of this.segments) {
      if (!segment.finalize) continue;
      settle(segment);
      segment.finalize.reject(error);
    }
    this.segments = [newSegment()];
  }

  private sendRaw(data: Buffer | string): void {
    if (!this.connected || this.socket?.readyState !== WebSocket.OPEN) return;
    this.lastSentAt = Date.now();
    this.socket.send(data);
  }
}

const newSegment = (): Segment => ({ audio: [], bytes: 0, finals: [] });

function settle(segment: Segment): void {
  if (segment.finalize) clearTimeout(segment.finalize.timer);
}
