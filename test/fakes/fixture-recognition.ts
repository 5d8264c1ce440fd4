import type { SpeechToText } from '../../src/modules/voice/speech/speech-engines';
import { CALLER_UTTERANCES, type CallerUtterance, callerAudio } from '../support/caller-utterances';

/** Bytes from the middle of an utterance: speech, never the silence eSpeak NG pads it with. */
const PROBE_BYTES = 320;

/**
 * An outside recogniser that knows the committed caller utterances: `finish` returns the words
 * of every utterance whose audio it was given since the previous finish, in the order heard
 * ('' for anything else). The media stream carries μ-law untouched, so each utterance arrives
 * byte for byte; unlike a scripted transcript, this proves the call's own audio reached it.
 */
export function fixtureRecognition(): SpeechToText {
  const probes = (Object.keys(CALLER_UTTERANCES) as CallerUtterance[]).map((name) => {
    const audio = callerAudio(name);
    const middle = Math.floor((audio.length - PROBE_BYTES) / 2);
    return { words: CALLER_UTTERANCES[name], probe: audio.subarray(middle, middle + PROBE_BYTES) };
  });
  return {
    open: () => {
      let heard: Buffer[] = [];
      return {
        write: (ulaw) => heard.push(Buffer.from(ulaw)),
        finish: () => {
          const audio = Buffer.concat(heard);
          heard = [];
          const found = probes
            .map(({ words, probe }) => ({ words, at: audio.indexOf(probe) }))
            .filter(({ at }) => at >= 0)
            .sort((a, b) => a.at - b.at);
          return Promise.resolve(found.map(({ words }) => words).join(' '));
        },
        reset: () => {
          heard = [];
        },
        close: () => {
          heard = [];
        },
      };
    },
  };
}
