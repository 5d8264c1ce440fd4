import type { TextToSpeechConfig } from '../../../../config';
import { type OutboundResponse, sendRequest } from '../../../../http/outbound-request';
import { PcmToUlaw } from '../pcm-to-ulaw';
import type { SynthesisOptions, TextToSpeech } from '../speech-engines';
import { httpStatusError, SpeechServiceError, unreachableError } from '../speech-service-error';

const ENGINE = 'OpenAI-compatible speech';

/** What `response_format: "pcm"` is: raw 16-bit little-endian mono at 24 kHz. */
const OPENAI_PCM_RATE = 24000;

/** OpenAI-compatible `/audio/speech` (OpenAI, Kokoro-FastAPI, LocalAI), streamed as it comes. */
export class OpenAiTextToSpeech implements TextToSpeech {
  constructor(private readonly config: TextToSpeechConfig) {}

  async *synthesize(text: string, options: SynthesisOptions): AsyncIterable<Buffer> {
    const encoder = new PcmToUlaw(OPENAI_PCM_RATE);
    let response: OutboundResponse;
    try {
      response = await sendRequest(`${this.config.apiUrl}/audio/speech`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.config.apiKey ?? ''}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          model: this.config.model,
          input: text,
          voice: options.voice || this.config.voice,
          response_format: 'pcm',
        }),
        signal: options.signal,
      });
    } catch (error) {
      // Whatever the request throws once aborted (an AbortError, a reset) is the abort itself.
      if (options.signal.aborted) return;
      throw unreachableError(ENGINE, error);
    }
    if (!response.ok) {
      response.discard();
      throw httpStatusError(ENGINE, response.status, response.header('retry-after'));
    }
    try {
      for await (const chunk of response.body) {
        const ulaw = encoder.push(chunk);
        if (ulaw.length > 0) yield ulaw;
      }
    } catch {
      if (options.signal.aborted) return;
      throw new SpeechServiceError(`${ENGINE} stream was cut`, true);
    }
    const tail = encoder.flush();
    if (tail.length > 0) yield tail;
  }
}
