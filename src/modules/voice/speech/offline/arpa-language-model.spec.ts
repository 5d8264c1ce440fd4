import { arpaLanguageModel, sentenceWords } from './arpa-language-model';

/** The model's n-grams: log10 probability and backoff by n-gram. */
function parse(arpa: string): Map<string, { logProb: number; backoff: number }> {
  const grams = new Map<string, { logProb: number; backoff: number }>();
  for (const line of arpa.split('\n')) {
    const fields = line.split('\t');
    if (fields.length < 2) continue;
    grams.set(fields[1], { logProb: Number(fields[0]), backoff: Number(fields[2] ?? 0) });
  }
  return grams;
}

describe('arpaLanguageModel', () => {
  const sentences = [
    'please leave a message',
    'please leave your name',
    'leave a message after the tone',
    'the mailbox is full',
    'hello',
  ];
  const arpa = arpaLanguageModel(sentences);
  const grams = parse(arpa);
  const vocabulary = [...new Set(sentences.flatMap(sentenceWords)), '</s>'];

  it('writes the ARPA header with the count of each order', () => {
    const header = arpa.split('\n\n')[0].split('\n');
    expect(header[0]).toBe('\\data\\');
    for (const n of [1, 2, 3]) {
      const listed = [...grams.keys()].filter((key) => key.split(' ').length === n).length;
      expect(header).toContain(`ngram ${n}=${listed}`);
    }
    expect(arpa.trimEnd().endsWith('\\end\\')).toBe(true);
  });

  /** P(word | history) as a decoder reads the model: the n-gram, else backoff to a shorter one. */
  function probability(history: string[], word: string): number {
    const gram = grams.get([...history, word].join(' '));
    if (gram) return 10 ** gram.logProb;
    const backoff = history.length ? (grams.get(history.join(' '))?.backoff ?? 0) : 0;
    return 10 ** backoff * probability(history.slice(1), word);
  }

  it.each([[[]], [['please']], [['<s>', 'please']], [['leave', 'a']], [['the']]])(
    "gives each history's next words probabilities that add up to one: %j",
    (history) => {
      const total = vocabulary.reduce((sum, word) => sum + probability(history, word), 0);
      expect(total).toBeCloseTo(1, 3);
    },
  );

  it('makes what the sentences say likelier than what they do not', () => {
    const said = probability(['please', 'leave'], 'a');
    const unsaid = probability(['please', 'leave'], 'full');
    expect(said).toBeGreaterThan(2 * unsaid);
    expect(unsaid).toBeGreaterThan(0);
    expect(grams.get('<s>')!.logProb).toBe(-99);
  });

  it('spells words as the dictionary does', () => {
    expect(sentenceWords("Hi, you've reached 5 - SAM's phone.")).toEqual([
      'hi',
      "you've",
      'reached',
      "sam's",
      'phone',
    ]);
  });
});
