import type { SynthesisOptions, TextToSpeech, TimedWord } from '../speech-engines';
import { PcmToUlaw } from '../pcm-to-ulaw';
import { type EspeakEngine, espeakEngine } from './espeak-engine';
import { EspeakWordTimings } from './espeak-word-timings';

// eSpeak NG voice names: a language code with an optional +variant (en-us, en-us+f3).
const VOICE_NAME = /^[a-z][a-z0-9-]*(\+[a-z0-9]+)?$/i;

/**
 * eSpeak NG, through its library in a process of its own (espeak-engine.ts): its audio is
 * resampled and μ-law encoded as it comes, and its word events time the text's words for
 * `onWords`, so a cut sentence keeps exactly the words that were played.
 */
export class EspeakTextToSpeech implements TextToSpeech {
  constructor(
    private readonly defaultVoice: string,
    /** Speaking rate; eSpeak NG's own default (175) when undefined. */
    private readonly wordsPerMinute?: number,
    private readonly engine: () => Promise<EspeakEngine> = espeakEngine,
  ) {}

  async *synthesize(text: string, options: SynthesisOptions): AsyncIterable<Buffer> {
    const voice = options.voice || this.defaultVoice;
    if (!VOICE_NAME.test(voice)) throw new Error('not an eSpeak NG voice name');
    const engine = await this.engine();
    const request = {
      text,
      voice,
      fallbackVoice: this.defaultVoice,
      wordsPerMinute: this.wordsPerMinute,
    };
    const encoder = new PcmToUlaw(engine.sampleRate);
    const timings = new EspeakWordTimings(text);
    let samples = 0;
    const tell = (words: TimedWord[]) => {
      if (words.length > 0) options.onWords?.(words);
    };
    for await (const { pcm, events } of engine.speak(request, options.signal)) {
      samples += pcm.length;
      tell(timings.push(events));
      const ulaw = encoder.push(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
      if (ulaw.length > 0) yield ulaw;
    }
    if (options.signal.aborted) return;
    tell(timings.end((samples / engine.sampleRate) * 1000));
    const tail = encoder.flush();
    if (tail.length > 0) yield tail;
  }
}
