import { chunkText, normaliseWhitespace } from './chunk-text';

/** The regular expressions normaliseWhitespace replaced, as the reference it must agree with. */
const byExpressions = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('chunkText', () => {
  const sentences = Array.from(
    { length: 60 },
    (_, i) => `Sentence number ${i} talks about topic${i} in some detail.`,
  );
  const text = sentences.join(' ');

  it('keeps every passage within the size and every word in some passage', () => {
    const passages = chunkText(text, { size: 200, overlap: 50 });
    expect(passages.length).toBeGreaterThan(10);
    for (const passage of passages) expect(passage.length).toBeLessThanOrEqual(200);
    const seen = new Set(passages.flatMap(words));
    for (const word of words(text)) expect(seen).toContain(word);
  });

  it('overlaps consecutive passages and cuts at sentence ends', () => {
    const passages = chunkText(text, { size: 200, overlap: 50 });
    for (let i = 1; i < passages.length; i += 1) {
      const previousWords = words(passages[i - 1]);
      expect(previousWords).toContain(words(passages[i])[0]);
    }
    for (const passage of passages.slice(0, -1)) expect(passage).toMatch(/\.$/);
  });

  it('never cuts a word that fits, and cuts one that does not', () => {
    const passages = chunkText('alpha beta gamma delta epsilon zeta eta theta', {
      size: 12,
      overlap: 4,
    });
    for (const passage of passages) {
      for (const word of words(passage)) expect(word.length).toBeGreaterThan(1);
    }
    expect(new Set(passages.flatMap(words))).toEqual(
      new Set(['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta']),
    );
    const long = chunkText('x'.repeat(25), { size: 10, overlap: 3 });
    expect(long.every((passage) => passage.length <= 10)).toBe(true);
    expect(long.join('').length).toBeGreaterThanOrEqual(25);
  });

  it('normalises whitespace and prefers paragraph breaks', () => {
    const passages = chunkText(
      `First  paragraph\r\nline.\n\n\n\nSecond paragraph ${'y '.repeat(40)}`,
      {
        size: 40,
        overlap: 10,
      },
    );
    expect(passages[0]).toBe('First paragraph\nline.');
  });

  it('normalises whitespace as the regular expressions did, on every mix of blanks and breaks', () => {
    const pieces = ['a', 'bc', ' ', '  ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u2003', '\n\n\n'];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let round = 0; round < 2_000; round += 1) {
      const text = Array.from({ length: next() % 12 }, () => pieces[next() % pieces.length]).join(
        '',
      );
      expect(JSON.stringify(normaliseWhitespace(text))).toBe(JSON.stringify(byExpressions(text)));
    }
  });

  it('normalises megabytes of spaces in one pass (a regular expression overflowed on them)', () => {
    const text = `Parcels travel by pelican.\n${' '.repeat(5_300_000)}\nBy sea too.`;
    expect(chunkText(text)).toEqual(['Parcels travel by pelican.\n\nBy sea too.']);
  });

  it('gives nothing for empty or blank text, one passage for short text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\t ')).toEqual([]);
    expect(chunkText('Short.')).toEqual(['Short.']);
  });

  it('terminates on long texts in linear time', () => {
    const big = 'word '.repeat(200_000);
    const started = Date.now();
    const passages = chunkText(big);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(passages.length).toBeGreaterThan(1_000);
  });
});
