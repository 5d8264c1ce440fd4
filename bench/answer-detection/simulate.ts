import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AnswerOutcome } from '@app/contracts';
import { ulawRmsLevel } from '../../src/modules/voice/audio/g711';
import { FRAME_BYTES, FRAME_MS } from '../../src/modules/voice/media/media-stream';
import {
  AnswerWatch,
  DEFAULT_ANSWER_WATCH,
  type AnswerVerdict,
} from '../../src/modules/voice/session/answer-watch';
import { FIXTURES } from './make-fixtures';
import type { LabelledAnswer } from './greetings';

/** What made the words of a turn, and how long it took (ms of wall time). */
export type Recogniser = (
  turn: Buffer,
  answer: LabelledAnswer,
) => Promise<{ words: string; tookMs: number }>;

/** A recogniser that hears every word (an accurate streaming engine, finalised in 300 ms). */
export const EXACT_WORDS: Recogniser = (_turn, answer) =>
  Promise.resolve({ words: answer.text, tookMs: 300 });

export interface AnswerRun {
  answer: LabelledAnswer;
  /** The last verdict (an uncertain one a later beep corrected is the correction). */
  outcome: AnswerOutcome | 'none';
  by: AnswerVerdict['by'] | 'none';
  /** From the stream's first frame, from the answer's first sound, and from the end of its first words. */
  verdictMs: number | null;
  sinceFirstSoundMs: number | null;
  sinceWordsEndedMs: number | null;
  heard: string;
}

export const loadAnswer = (answer: LabelledAnswer): Promise<Buffer> =>
  readFile(path.join(FIXTURES, `${answer.name}.ulaw`));

/**
 * Plays one answer to an AnswerWatch in audio time, as a call's session does: every 20 ms frame,
 * and words once the recogniser is done with them. Where they come from is `wordsOf`:
 * - 'first turn': the call's own recogniser (a streaming engine) on the first turn, the audio up
 *   to the first pause of a turn's length after the first sound (TurnTracker's end of turn);
 * - 'greeting': a first-turn model (the offline engine, GreetingWords) on the whole greeting so
 *   far each time a long one pauses, as AnswerWatch asks for it, words overtaken by a later ask
 *   dropped.
 */
export async function simulate(
  answer: LabelledAnswer,
  audio: Buffer,
  recognise: Recogniser,
  wordsOf: 'first turn' | 'greeting' = 'first turn',
): Promise<AnswerRun> {
  const verdicts: AnswerVerdict[] = [];
  const watch = new AnswerWatch((verdict) => verdicts.push({ ...verdict }));
  const frames = Math.floor(audio.length / FRAME_BYTES);
  const frameAt = (i: number) => audio.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES);
  const firstSound = firstLoudFrame(audio);
  const turnEnd = firstSound === undefined ? undefined : turnEndFrame(audio, firstSound);
  let current = 0;
  let askedAt: number | undefined;
  let asks = 0;
  if (wordsOf === 'greeting') watch.onGreetingEnded(() => (askedAt = current));
  const arriving: Array<{ at: number; ask: number; words: string }> = [];
  const heard: string[] = [];
  for (; current < frames; current++) {
    watch.hear(frameAt(current));
    const ask = wordsOf === 'greeting' ? askedAt === current : current === turnEnd;
    if (ask) {
      asks += 1;
      const { words, tookMs } = await recognise(
        audio.subarray(0, (current + 1) * FRAME_BYTES),
        answer,
      );
      arriving.push({ at: current + Math.ceil(tookMs / FRAME_MS), ask: asks, words });
    }
    const now = arriving.filter(({ at, ask }) => at === current && ask === asks);
    for (const { words } of now) {
      heard.push(words);
      if (words.trim() !== '') watch.heard(words);
    }
  }
  const last = verdicts.at(-1);
  return {
    answer,
    outcome: last?.outcome ?? 'none',
    by: last?.by ?? 'none',
    verdictMs: verdicts[0]?.afterMs ?? null,
    sinceFirstSoundMs:
      verdicts[0] && firstSound !== undefined ? verdicts[0].afterMs - firstSound * FRAME_MS : null,
    sinceWordsEndedMs:
      verdicts[0] && turnEnd !== undefined
        ? verdicts[0].afterMs - (turnEnd + 1 - TURN_QUIET_FRAMES) * FRAME_MS
        : null,
    heard: heard.join(' | '),
  };
}

const loud = (frame: Uint8Array) => ulawRmsLevel(frame) >= DEFAULT_ANSWER_WATCH.voiceRms;

function firstLoudFrame(audio: Buffer): number | undefined {
  for (let i = 0; (i + 1) * FRAME_BYTES <= audio.length; i++)
    if (loud(audio.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES))) return i;
  return undefined;
}

/** A turn ends after this much quiet (TurnTracker's end of turn). */
const TURN_QUIET_FRAMES = 700 / FRAME_MS;

/** The frame where the quiet after `from` ends the first turn (the last frame if none). */
function turnEndFrame(audio: Buffer, from: number): number {
  const frames = Math.floor(audio.length / FRAME_BYTES);
  let quiet = 0;
  for (let i = from; i < frames; i++) {
    quiet = loud(audio.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES)) ? 0 : quiet + 1;
    if (quiet >= TURN_QUIET_FRAMES) return i;
  }
  return frames - 1;
}
