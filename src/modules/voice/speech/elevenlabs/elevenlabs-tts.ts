import WebSocket from 'ws';
import type { TextToSpeechConfig } from '../../../../config';
import { ChunkQueue } from '../chunk-queue';
import { type ElevenLabsAlignment, WordAlignment } from './alignment';
import type { SynthesisOptions, TextToSpeech } from '../speech-engines';
import { httpStatusError, SpeechServiceError } from '../speech-service-error';
import { messageText, websocketUrl } from '../websocket';

interface ElevenLabsMessage {
  audio?: string | null;
  isFinal?: boolean | null;
  alignment?: ElevenLabsAlignment | null;
  error?: string;
}

/** μ-law at 8 kHz: one byte a sample, 8 a millisecond. */
const ULAW_BYTES_PER_MS = 8;

/**
 * ElevenLabs input streaming: the whole text in one message, audio back as ulaw_8000, which is
 * already what the call carries, with each message's character alignment (sync_alignment),
 * from which the words' timings are told to `onWords`.
 */
export class ElevenLabsTextToSpeech implements TextToSpeech {
  constructor(private readonly config: TextToSpeechConfig) {}

  async *synthesize(text: string, options: SynthesisOptions): AsyncIterable<Buffer> {
    if (options.signal.aborted) return;
    const voice = encodeURIComponent(options.voice || this.config.voice);
    const url = websocketUrl(this.config.apiUrl, `/text-to-speech/${voice}/stream-input`, {
      model_id: this.config.model,
      output_format: 'ulaw_8000',
      sync_alignment: 'true',
    });
    const words = new WordAlignment();
    let audioMs = 0;
    const audio = new ChunkQueue<Buffer>();
    const socket = new WebSocket(url);
    const stop = () => {
      audio.end();
      socket.terminate();
    };
    options.signal.addEventListener('abort', stop, { once: true });
    const fail = (reason: string, retryable: boolean, retryAfterMs?: number) => {
      audio.fail(new SpeechServiceError(reason, retryable, retryAfterMs));
      socket.terminate();
    };
    socket.on('open', () => {
      // The first message opens the stream (a space, with the key); the text ends with a space
      // so its last word is spoken; an empty text closes the stream and flushes the audio.
      socket.send(JSON.stringify({ text: ' ', xi_api_key: this.config.apiKey ?? '' }));
      socket.send(JSON.stringify({ text: `${text} ` }));
      socket.send(JSON.stringify({ text: '' }));
    });
    socket.on('message', (data) => {
      let message: ElevenLabsMessage;
      try {
        message = JSON.parse(messageText(data)) as ElevenLabsMessage;
      } catch {
        return fail('ElevenLabs sent a message that is not JSON', false);
      }
      if (message.error) {
        return fail(`ElevenLabs refused the stream (${describe(message.error)})`, false);
      }
      if (message.audio) {
        const chunk = Buffer.from(message.audio, 'base64');
        const timed = words.push(message.alignment, audioMs);
        audioMs += chunk.length / ULAW_BYTES_PER_MS;
        audio.push(chunk);
        if (timed.length > 0) options.onWords?.(timed);
      }
      if (message.isFinal) {
        const last = words.end();
        if (last.length > 0) options.onWords?.(last);
        audio.end();
        socket.close(1000);
      }
    });
    socket.on('unexpected-response', (_request, response) => {
      const { statusCode: status = 0, headers } = response;
      const error = httpStatusError('ElevenLabs', status, headers['retry-after']);
      fail(
        status === 401 || status === 403
          ? error.message
          : `ElevenLabs refused the stream (HTTP ${status})`,
        error.retryable,
        error.retryAfterMs,
      );
    });
    socket.on('error', () => fail('ElevenLabs connection failed', true));
    socket.on('close', (code, reason) => {
      const why = `${code} ${describe(reason.toString())}`;
      fail(`ElevenLabs closed the stream before the end (${why})`, true);
    });
    try {
      yield* audio;
    } finally {
      options.signal.removeEventListener('abort', stop);
      socket.terminate();
    }
  }
}

/** The service's error code, kept short and free of anything but words (it goes to logs). */
const describe = (reason: string): string => reason.replace(/[^\w .-]/g, '').slice(0, 80);
