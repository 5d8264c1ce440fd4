import type { TimedWord } from '../speech/speech-engines';
import { heardPart, Reply } from './reply';

const sentence = (text: string, from = 100, to = 110, words: TimedWord[] = []) => ({
  text,
  mark: 'm',
  from,
  to,
  words,
});

describe('heardPart: what the caller heard of a sentence cut by a clear', () => {
  const text = 'Our plans start at ten dollars a month.';

  it('keeps the words whose end was played, with a dash for the cut', () => {
    expect(heardPart(sentence(text), 105)).toBe('Our plans start at—');
    expect(heardPart(sentence(text), 101)).toBe('Our—');
    expect(heardPart(sentence(text), 100)).toBe('');
    // All of its audio played (its mark just not back yet): the whole sentence.
    expect(heardPart(sentence(text), 110)).toBe(text);
    expect(heardPart(sentence(text), 250)).toBe(text);
  });

  it('drops the punctuation a cut word ends with', () => {
    expect(heardPart(sentence('Yes, of course, we can.'), 103)).toBe('Yes—');
  });

  it("keeps the words the engine's timings say were played, where it timed them all", () => {
    // A slow start: 'Our' ends at 150 ms of a 200 ms sentence, which the length would not tell.
    const timed = [
      { text: 'Our', endMs: 150 },
      { text: 'plans', endMs: 170 },
      { text: 'start', endMs: 180 },
      { text: 'at', endMs: 185 },
      { text: 'ten', endMs: 190 },
      { text: 'dollars', endMs: 194 },
      { text: 'a', endMs: 196 },
      { text: 'month.', endMs: 200 },
    ];
    expect(heardPart(sentence(text, 100, 110, timed), 107)).toBe('');
    expect(heardPart(sentence(text, 100, 110, timed), 108)).toBe('Our—');
    expect(heardPart(sentence(text, 100, 110, timed), 109)).toBe('Our plans start—');
    // Timings that do not cover every word (a normalised text): the length decides.
    expect(heardPart(sentence(text, 100, 110, timed.slice(0, 3)), 105)).toBe('Our plans start at—');
  });

  it('times the words by their length when the engine timed them out of order or past the audio', () => {
    const timed = [150, 170, 180, 185, 190, 194, 196, 200].map((endMs, i) => ({
      text: text.split(' ')[i],
      endMs,
    }));
    const backwards = timed.map((word, i) => (i === 2 ? { ...word, endMs: 20 } : word));
    const beyond = timed.map((word) => ({ ...word, endMs: word.endMs * 10 }));
    const notANumber = timed.map((word, i) => (i === 0 ? { ...word, endMs: NaN } : word));
    for (const garbled of [backwards, beyond, notANumber])
      expect(heardPart(sentence(text, 100, 110, garbled), 105)).toBe('Our plans start at—');
    // Just past the end is rounding, not garbage.
    const rounded = timed.map((word, i) => (i === 7 ? { ...word, endMs: 230 } : word));
    expect(heardPart(sentence(text, 100, 110, rounded), 108)).toBe('Our—');
  });

  it('hears nothing of a sentence with no audio', () => {
    expect(heardPart(sentence(text, 100, 100), 100)).toBe('');
  });
});

describe('Reply: the text kept of an interrupted reply', () => {
  it('keeps the heard sentences and the cut words; a resume forgets the cut', () => {
    const reply = new Reply('reply-1');
    reply.queued('One.', 0, 10);
    reply.queued('Our plans start at ten dollars a month.', 10, 20);
    reply.queued('Call us.', 20, 30);
    const heard = ({ mark }: { mark: string }) => mark === 'reply-1-1';
    reply.pauseAt(heard, 15);
    expect(reply.text(() => true)).toBe('One. Our plans start at—');
    expect(reply.unsaid).toEqual(['Our plans start at ten dollars a month.', 'Call us.']);
    reply.resume();
    expect(reply.text(() => true)).toBe('One.');
  });
});
