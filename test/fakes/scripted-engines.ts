import type { SpeechEngines } from '../../src/modules/voice/speech/speech-engines';
import { scriptedRecognition } from './scripted-recognition';
import { ulawTone } from './ulaw-tone';

/** 300 ms of a 440 Hz tone: what each sentence sounds like by default (15 frames). */
const SENTENCE = ulawTone(440, 300);

/**
 * Outside engines for voice tests: the recogniser returns `transcripts` in order, synthesis
 * records each text in `spoken` and answers with a known tone (`toneFor` picks another per text).
 */
export function scriptedEngines(
  transcripts: string[],
  spoken: string[],
  toneFor: (text: string) => Buffer = () => SENTENCE,
): SpeechEngines {
  return {
    stt: scriptedRecognition(transcripts),
    tts: {
      async *synthesize(text) {
        spoken.push(text);
        await Promise.resolve();
        yield toneFor(text);
      },
    },
    readiness: () => Promise.resolve({ ready: true }),
  };
}
