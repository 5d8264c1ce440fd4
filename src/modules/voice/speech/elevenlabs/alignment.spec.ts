import { WordAlignment } from './alignment';

const aligned = (text: string, startMs: number, msPerChar: number) => ({
  chars: [...text],
  charStartTimesMs: [...text].map((_, i) => startMs + i * msPerChar),
  charsDurationsMs: [...text].map(() => msPerChar),
});

describe("words from ElevenLabs' character alignment", () => {
  it('ends each word at its last character, counting each message from where its audio starts', () => {
    const words = new WordAlignment();
    // "Hello the" in the first message's 100 ms of audio, "re friend" in the next.
    expect(words.push(aligned('Hello the', 0, 10), 0)).toEqual([{ text: 'Hello', endMs: 50 }]);
    expect(words.push(aligned('re friend', 0, 10), 100)).toEqual([{ text: 'there', endMs: 120 }]);
    expect(words.end()).toEqual([{ text: 'friend', endMs: 190 }]);
    expect(words.end()).toEqual([]);
  });

  it('takes a message without alignment as no words', () => {
    const words = new WordAlignment();
    expect(words.push(null, 0)).toEqual([]);
    expect(words.push(undefined, 40)).toEqual([]);
    expect(words.end()).toEqual([]);
  });
});
