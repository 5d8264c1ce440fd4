import type { SynthesisOptions, TextToSpeech } from '../speech-engines';
import { PcmToUlaw } from '../pcm-to-ulaw';
import { WavStreamParser } from '../wav';
import { streamCommand } from './child-process';

export const ESPEAK_COMMAND = 'espeak-ng';

// eSpeak NG voice names: a language code with an optional +variant (en-us, en-us+f3).
const VOICE_NAME = /^[a-z][a-z0-9-]*(\+[a-z0-9]+)?$/i;

/** eSpeak NG: its WAV on stdout, resampled and μ-law encoded as it streams. */
export class EspeakTextToSpeech implements TextToSpeech {
  constructor(
    private readonly defaultVoice: string,
    /** Speaking rate; eSpeak NG's own default (175) when undefined. */
    private readonly wordsPerMinute?: number,
  ) {}

  async *synthesize(text: string, options: SynthesisOptions): AsyncIterable<Buffer> {
    const voice = options.voice || this.defaultVoice;
    if (!VOICE_NAME.test(voice)) throw new Error('not an eSpeak NG voice name');
    // The text goes on stdin: never an argument, where a leading '-' would read as an option.
    const rate = this.wordsPerMinute === undefined ? [] : ['-s', String(this.wordsPerMinute)];
    const wav = streamCommand(
      ESPEAK_COMMAND,
      ['--stdout', '-v', voice, ...rate],
      text,
      options.signal,
    );
    const parser = new WavStreamParser();
    let encoder: PcmToUlaw | undefined;
    for await (const chunk of wav) {
      const pcm = parser.push(chunk);
      if (!parser.format) continue;
      if (parser.format.channels !== 1 || parser.format.bitsPerSample !== 16) {
        throw new Error('eSpeak NG did not speak 16-bit mono');
      }
      encoder ??= new PcmToUlaw(parser.format.sampleRate);
      const ulaw = encoder.push(pcm);
      if (ulaw.length > 0) yield ulaw;
    }
    if (encoder && !options.signal.aborted) {
      const tail = encoder.flush();
      if (tail.length > 0) yield tail;
    }
  }
}
