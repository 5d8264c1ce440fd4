import type { TimedWord } from '../speech-engines';

/** eSpeak NG's event types (speak_lib.h) that place words in its audio. */
export const ESPEAK_EVENT = { word: 1, clauseEnd: 5, messageEnd: 6 } as const;

/** One of eSpeak NG's events: where in the text (1-based, in code points), when in the audio. */
export interface EspeakEvent {
  type: number;
  textPosition: number;
  audioMs: number;
}

interface Word {
  text: string;
  /** Code points of the text, from `start` up to `end`. */
  start: number;
  end: number;
  endMs?: number;
}

/**
 * The text's own words (split on whitespace, as a cut sentence is) timed from eSpeak NG's
 * events. A word event says where one of eSpeak's words starts in the text and in the audio; it
 * lasts until the next word or the clause's end. A word of the text ends when the last of
 * eSpeak's words inside it does ("3.50" is four of eSpeak's, "x-ray" one); one eSpeak says
 * nothing of (a dash) ends with the word before it.
 */
export class EspeakWordTimings {
  private readonly words: Word[] = [];
  /** The first word not yet told. */
  private next = 0;
  /** Where the eSpeak word under way starts in the text (0-based), if one is. */
  private open: number | undefined;
  private lastEndMs = 0;

  constructor(text: string) {
    let start = -1;
    const chars = Array.from(text);
    chars.forEach((char, i) => {
      const blank = /\s/.test(char);
      if (!blank && start === -1) start = i;
      if (blank && start !== -1) {
        this.words.push({ text: chars.slice(start, i).join(''), start, end: i });
        start = -1;
      }
    });
    if (start !== -1) {
      this.words.push({ text: chars.slice(start).join(''), start, end: chars.length });
    }
  }

  /** The words these events complete. */
  push(events: readonly EspeakEvent[]): TimedWord[] {
    const told: TimedWord[] = [];
    for (const event of events) {
      if (!PLACING.has(event.type)) continue;
      this.close(event.audioMs);
      if (event.type !== ESPEAK_EVENT.word) continue;
      this.open = event.textPosition - 1;
      this.tell(told, this.open);
    }
    return told;
  }

  /** The words still untold, once the audio (`totalMs` long) is over. */
  end(totalMs: number): TimedWord[] {
    this.close(totalMs);
    const told: TimedWord[] = [];
    this.tell(told, Infinity);
    return told;
  }

  private close(atMs: number): void {
    if (this.open === undefined) return;
    const position = this.open;
    this.open = undefined;
    const word = this.words.find((candidate) => candidate.end > position);
    if (word) word.endMs = Math.max(word.endMs ?? 0, atMs);
  }

  /** Tells, in order, the words that end before `position` in the text. */
  private tell(told: TimedWord[], position: number): void {
    while (this.next < this.words.length && this.words[this.next].end <= position) {
      const word = this.words[this.next];
      this.lastEndMs = Math.max(this.lastEndMs, word.endMs ?? 0);
      told.push({ text: word.text, endMs: this.lastEndMs });
      this.next += 1;
    }
  }
}

const PLACING: ReadonlySet<number> = new Set(Object.values(ESPEAK_EVENT));
