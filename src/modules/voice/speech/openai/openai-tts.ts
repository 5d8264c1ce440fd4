import type { TextToSpeechConfig } from '../../../../config';
import { sendRequest } from '../../../../http/outbound-request';
import { PcmToUlaw } from '../pcm-to-ulaw';
import type { SynthesisOptions, TextToSpeech } from '../speech-engines';
import { httpStatusError } from '../speech-service-error';

/** What `response_format: "pcm"` is: raw 16-bit little-endian mono at 24 kHz. */
const OPENAI_PCM_RATE = 24000;

/** OpenAI-compatible `/audio/speech` (OpenAI, Kokoro-FastAPI, LocalAI), streamed as it comes. */
export class OpenAiTextToSpeech implements TextToSpeech {
  constructor(private readonly config: TextToSpeechConfig) {}

  async *synthesize(text: string, options: SynthesisOptions): AsyncIterable<Buffer> {
    const encoder = new PcmToUlaw(OPENAI_PCM_RATE);
    try {
      const response = await sendRequest(`${this.config.apiUrl}/audio/speech`, {
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
      if (!response.ok) {
        response.discard();
        throw httpStatusError('OpenAI-compatible speech', response.status);
      }
      for await (const chunk of response.body) {
        const ulaw = encoder.push(chunk);
        if (ulaw.length > 0) yield ulaw;
      }
    } catch (error) {
      // Whatever the download throws once aborted (an AbortError, a reset) is the abort itself.
      if (options.signal.aborted) return;
      throw error;
    }
    const tail = encoder.flush();
    if (tail.length > 0) yield tail;
  }
}
