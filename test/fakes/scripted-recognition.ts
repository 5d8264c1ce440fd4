import type { SpeechToText } from '../../src/modules/voice/speech/speech-engines';

/** An outside recogniser whose every `finish` returns the next of `transcripts` ('' when none). */
export const scriptedRecognition = (transcripts: string[]): SpeechToText => ({
  open: () => ({
    write: () => undefined,
    finish: () => Promise.resolve(transcripts.shift() ?? ''),
    reset: () => undefined,
    close: () => undefined,
  }),
});
