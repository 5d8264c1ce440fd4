import type { SpeechTiming, SpeechToText } from '../../src/modules/voice/speech/speech-engines';

/**
 * An outside recogniser whose every `finish` returns the next of `transcripts` ('' when none);
 * the speech timing each finish was given goes to `spans`.
 */
export const scriptedRecognition = (
  transcripts: string[],
  spans: Array<SpeechTiming | undefined> = [],
): SpeechToText => ({
  open: () => ({
    write: () => undefined,
    finish: (_signal?: AbortSignal, speech?: SpeechTiming) => {
      spans.push(speech);
      return Promise.resolve(transcripts.shift() ?? '');
    },
    reset: () => undefined,
    close: () => undefined,
  }),
});
