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

  it('gives no more words for the sentence once an alignment makes no sense', () => {
    const garbled = [
      { ...aligned('Hi you', 0, 10), charStartTimesMs: ['0', '10', '20', '30', '40', '50'] },
      { ...aligned('Hi you', 0, 10), charsDurationsMs: [10, 10] },
      { ...aligned('Hi you', 0, 10), charStartTimesMs: [0, 10, -20, 30, 40, 50] },
      { ...aligned('Hi you', 0, 10), charStartTimesMs: [50, 40, 30, 20, 10, 0] },
      { chars: [...'Hi you'] },
    ];
    for (const alignment of garbled) {
      const words = new WordAlignment();
      expect(words.push(aligned('Well ', 0, 10), 0)).toEqual([{ text: 'Well', endMs: 40 }]);
      expect(words.push(alignment as never, 50)).toEqual([]);
      expect(words.push(aligned(' there', 0, 10), 110)).toEqual([]);
      expect(words.end()).toEqual([]);
    }
  });
});
