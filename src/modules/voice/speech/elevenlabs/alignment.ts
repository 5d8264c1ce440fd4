import type { TimedWord } from '../speech-engines';

/** ElevenLabs' character alignment of one audio message, in ms from that message's audio. */
export interface ElevenLabsAlignment {
  chars?: string[];
  charStartTimesMs?: number[];
  charsDurationsMs?: number[];
}

/**
 * Words from ElevenLabs' character alignments: each message's times count from its own audio,
 * which starts where the audio before it ended (`offsetMs`). A word is given once the space
 * after it (or the end) is seen; its end is its last character's. An alignment that makes no
 * sense (times missing, not numbers, negative, or going back) ends the words for the sentence:
 * what the caller heard of it is then timed by its length instead (heardPart).
 */
export class WordAlignment {
  private word = '';
  private wordEndMs = 0;
  private garbled = false;

  /** The words this message's alignment completes. */
  push(alignment: ElevenLabsAlignment | null | undefined, offsetMs: number): TimedWord[] {
    if (this.garbled || !alignment) return [];
    const { chars, charStartTimesMs: starts, charsDurationsMs: durations } = alignment;
    if (!Array.isArray(chars)) return [];
    if (!Array.isArray(starts) || !Array.isArray(durations)) return this.giveUp();
    if (starts.length !== chars.length || durations.length !== chars.length) return this.giveUp();
    const words: TimedWord[] = [];
    for (const [i, char] of chars.entries()) {
      const [start, duration] = [starts[i], durations[i]];
      if (!validMs(start) || !validMs(duration) || typeof char !== 'string') return this.giveUp();
      if (/\s/.test(char)) {
        this.close(words);
        continue;
      }
      const endMs = offsetMs + start + duration;
      if (endMs < this.wordEndMs) return this.giveUp();
      this.word += char;
      this.wordEndMs = endMs;
    }
    return words;
  }

  /** The last word, once the audio is over. */
  end(): TimedWord[] {
    if (this.garbled) return [];
    const words: TimedWord[] = [];
    this.close(words);
    return words;
  }

  private giveUp(): TimedWord[] {
    this.garbled = true;
    return [];
  }

  private close(words: TimedWord[]): void {
    if (this.word !== '') words.push({ text: this.word, endMs: this.wordEndMs });
    this.word = '';
  }
}

const validMs = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;
