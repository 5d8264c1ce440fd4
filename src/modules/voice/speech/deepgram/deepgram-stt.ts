import WebSocket from 'ws';
import type { SpeechToTextConfig } from '../../../../config';
import type { RecognitionStream, SpeechToText } from '../speech-engines';
import { SpeechServiceError } from '../speech-service-error';
import { messageText, websocketUrl } from '../websocket';

const KEEPALIVE_MS = 5_000;
/** How long `finish` waits for the result of its Finalize before answering with what it has. */
const FINALIZE_TIMEOUT_MS = 3_000;

/** Deepgram streaming recognition: μ-law 8 kHz is native, so frames go out as they arrive. */
export class DeepgramSpeechToText implements SpeechToText {
  constructor(
    private readonly config: SpeechToTextConfig,
    private readonly keepAliveMs = KEEPALIVE_MS,
  ) {}

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
    return new DeepgramRecognitionStream(url, this.config.apiKey ?? '', this.keepAliveMs);
  }
}

interface DeepgramMessage {
  type?: string;
  is_final?: boolean;
  from_finalize?: boolean;
  channel?: { alternatives?: { transcript?: string }[] };
}

class DeepgramRecognitionStream implements RecognitionStream {
  private readonly socket: WebSocket;
  private readonly opened: Promise<void>;
  private failure: SpeechServiceError | undefined;
  private finals: string[] = [];
  /** The words of the segment under way, revised by each interim result. */
  private interim = '';
  private wordsListener: ((words: string) => void) | undefined;
  private audioSinceFinish = false;
  private lastSentAt = Date.now();
  private readonly keepAlive: NodeJS.Timeout;
  private onFinalized: (() => void) | undefined;

  constructor(url: string, apiKey: string, keepAliveMs: number) {
    this.socket = new WebSocket(url, { headers: { authorization: `Token ${apiKey}` } });
    this.opened = new Promise((resolve) => this.socket.once('open', () => resolve()));
    this.opened.catch(() => undefined);
    this.socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      this.fail(
        status === 401 || status === 403
          ? `Deepgram refused the API key (HTTP ${status})`
          : `Deepgram refused the stream (HTTP ${status})`,
      );
      this.socket.terminate();
    });
    this.socket.on('error', () => this.fail('Deepgram connection failed'));
    this.socket.on('close', () => this.fail('Deepgram closed the stream'));
    this.socket.on('message', (data, isBinary) => {
      if (!isBinary) this.onMessage(messageText(data));
    });
    // Deepgram closes a stream that hears nothing for 10 s: between turns, say it is still there.
    this.keepAlive = setInterval(() => {
      if (Date.now() - this.lastSentAt >= keepAliveMs / 2) this.send({ type: 'KeepAlive' });
    }, keepAliveMs);
    this.keepAlive.unref();
  }

  write(ulaw: Buffer): void {
    if (this.failure) return;
    this.audioSinceFinish = true;
    this.sendWhenOpen(ulaw);
  }

  async finish(signal?: AbortSignal): Promise<string> {
    if (this.failure) throw this.failure;
    if (!this.audioSinceFinish) return this.takeTranscript();
    this.audioSinceFinish = false;
    const finalized = new Promise<void>((resolve) => {
      this.onFinalized = resolve;
      const timer = setTimeout(resolve, FINALIZE_TIMEOUT_MS);
      timer.unref();
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    this.sendWhenOpen(JSON.stringify({ type: 'Finalize' }));
    await finalized;
    this.onFinalized = undefined;
    const failure = this.failure as SpeechServiceError | undefined;
    if (failure && this.finals.length === 0) throw failure;
    return this.takeTranscript();
  }

  onWords(listener: (words: string) => void): void {
    this.wordsListener = listener;
  }

  reset(): void {
    this.finals = [];
    this.interim = '';
  }

  close(): void {
    clearInterval(this.keepAlive);
    if (this.socket.readyState === WebSocket.OPEN) {
      this.send({ type: 'CloseStream' });
      this.socket.close(1000);
    } else {
      this.socket.terminate();
    }
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
    if (message.is_final) {
      if (transcript) this.finals.push(transcript);
      this.interim = '';
    } else {
      this.interim = transcript;
    }
    if (message.from_finalize) {
      this.onFinalized?.();
      return;
    }
    this.wordsListener?.([...this.finals, this.interim].filter(Boolean).join(' '));
  }

  private takeTranscript(): string {
    const transcript = this.finals.join(' ');
    this.reset();
    return transcript;
  }

  private sendWhenOpen(data: Buffer | string): void {
    if (this.socket.readyState === WebSocket.OPEN) return this.sendRaw(data);
    void this.opened.then(() => this.sendRaw(data));
  }

  private send(message: object): void {
    if (this.socket.readyState === WebSocket.OPEN) this.sendRaw(JSON.stringify(message));
  }

  private sendRaw(data: Buffer | string): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.lastSentAt = Date.now();
    this.socket.send(data);
  }

  private fail(reason: string): void {
    this.failure ??= new SpeechServiceError(reason);
    this.onFinalized?.();
  }
}
