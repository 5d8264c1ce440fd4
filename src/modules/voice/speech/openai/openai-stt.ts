import { multipartBody } from '../../../../http/multipart-body';
import { sendRequest } from '../../../../http/outbound-request';
import { decodeUlaw } from '../../audio/g711';
import { BatchRecognitionStream } from '../batch-recognition-stream';
import type { SpeechToTextConfig } from '../../../../config';
import type { RecognitionStream, SpeechToText } from '../speech-engines';
import { httpStatusError, SpeechServiceError, unreachableError } from '../speech-service-error';
import { TELEPHONE_RATE } from '../pcm-to-ulaw';
import { encodeWav } from '../wav';

// A backstop: on a live call the failover gives a turn far less (STT_TURN_TIMEOUT_MS).
const REQUEST_TIMEOUT_MS = 30_000;
const ENGINE = 'OpenAI-compatible transcription';

/** OpenAI-compatible `/audio/transcriptions` (OpenAI, speaches, LocalAI) on each utterance. */
export class OpenAiSpeechToText implements SpeechToText {
  constructor(private readonly config: SpeechToTextConfig) {}

  open(options: { language: string }): RecognitionStream {
    return new BatchRecognitionStream((ulaw, signal) =>
      this.transcribe(ulaw, options.language, signal),
    );
  }

  private async transcribe(ulaw: Buffer, language: string, signal?: AbortSignal) {
    const wav = encodeWav(decodeUlaw(ulaw), TELEPHONE_RATE);
    const form = multipartBody(
      {
        model: this.config.model,
        // Whisper takes ISO 639-1: the primary subtag of the agent's BCP 47 language.
        language: language.split('-')[0].toLowerCase(),
        response_format: 'json',
      },
      [{ field: 'file', filename: 'utterance.wav', contentType: 'audio/wav', data: wav }],
    );
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let body: { text?: unknown } | undefined;
    try {
      const response = await sendRequest(`${this.config.apiUrl}/audio/transcriptions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.config.apiKey ?? ''}`,
          'content-type': form.contentType,
        },
        body: form.body,
        signal: combined,
      });
      if (!response.ok) {
        response.discard();
        throw httpStatusError(ENGINE, response.status, response.header('retry-after'));
      }
      body = (await response.json()) as { text?: unknown } | undefined;
    } catch (error) {
      if (signal?.aborted) throw error;
      throw unreachableError(ENGINE, error);
    }
    if (typeof body?.text !== 'string') {
      throw new SpeechServiceError(`${ENGINE} answered without text`);
    }
    return body.text;
  }
}
