import { decodeUlaw } from '../../audio/g711';
import { BatchRecognitionStream } from '../batch-recognition-stream';
import type { SpeechToTextConfig } from '../../../../config';
import type { RecognitionStream, SpeechToText } from '../speech-engines';
import { httpStatusError, SpeechServiceError } from '../speech-service-error';
import { TELEPHONE_RATE } from '../pcm-to-ulaw';
import { encodeWav } from '../wav';

const REQUEST_TIMEOUT_MS = 30_000;

/** OpenAI-compatible `/audio/transcriptions` (OpenAI, speaches, LocalAI) on each utterance. */
export class OpenAiSpeechToText implements SpeechToText {
  constructor(private readonly config: SpeechToTextConfig) {}

  open(options: { language: string }): RecognitionStream {
    return new BatchRecognitionStream((ulaw, signal) =>
      this.transcribe(ulaw, options.language, signal),
    );
  }

  private async transcribe(ulaw: Buffer, language: string, signal?: AbortSignal) {
    const form = new FormData();
    const wav = encodeWav(decodeUlaw(ulaw), TELEPHONE_RATE);
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'utterance.wav');
    form.append('model', this.config.model);
    // Whisper takes ISO 639-1: the primary subtag of the agent's BCP 47 language.
    form.append('language', language.split('-')[0].toLowerCase());
    form.append('response_format', 'json');
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const response = await fetch(`${this.config.apiUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.apiKey ?? ''}` },
      body: form,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) throw httpStatusError('OpenAI-compatible transcription', response.status);
    const body = (await response.json()) as { text?: unknown };
    if (typeof body.text !== 'string') {
      throw new SpeechServiceError('OpenAI-compatible transcription answered without text');
    }
    return body.text;
  }
}
