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
 * after it (or the end) is seen; its end is its last character's.
 */
export class WordAlignment {
  private word = '';
  private wordEndMs = 0;

  /** The words this message's alignment completes. */
  push(alignment: ElevenLabsAlignment | null | undefined, offsetMs: number): TimedWord[] {
    const { chars = [], charStartTimesMs = [], charsDurationsMs = [] } = alignment ?? {};
    const words: TimedWord[] = [];
    chars.forEach((char, i) => {
      if (/\s/.test(char)) {
        this.close(words);
        return;
      }
      this.word += char;
      this.wordEndMs = offsetMs + (charStartTimesMs[i] ?? 0) + (charsDurationsMs[i] ?? 0);
    });
    return words;
  }

  /** The last word, once the audio is over. */
  end(): TimedWord[] {
    const words: TimedWord[] = [];
    this.close(words);
    return words;
  }

  private close(words: TimedWord[]): void {
    if (this.word !== '') words.push({ text: this.word, endMs: this.wordEndMs });
    this.word = '';
  }
}
