/**
 * A trigram language model in the ARPA text format PocketSphinx reads, from a list of sentences:
 * absolute discounting with backoff (Ney's discount per order), each history's backoff weight
 * chosen so that its probabilities add up to one. Small corpora only (a few thousand words).
 */
export function arpaLanguageModel(sentences: readonly string[], order = 3): string {
  const counts = countNgrams(sentences, order);
  const model = new BackoffModel(counts, order);
  const lines = ['\\data\\'];
  for (let n = 1; n <= order; n++) lines.push(`ngram ${n}=${counts[n - 1].size}`);
  for (let n = 1; n <= order; n++) {
    lines.push('', `\\${n}-grams:`);
    for (const key of [...counts[n - 1].keys()].sort()) {
      const words = key.split(' ');
      const logProb = words.at(-1) === START ? -99 : Math.log10(model.probability(words));
      const backoff = n < order ? `\t${Math.log10(model.backoffWeight(words)).toFixed(4)}` : '';
      lines.push(`${logProb.toFixed(4)}\t${key}${backoff}`);
    }
  }
  lines.push('', '\\end\\', '');
  return lines.join('\n');
}

const START = '<s>';
const END = '</s>';

/** The words of a sentence as a dictionary spells them: lower case, apostrophes kept. */
export function sentenceWords(sentence: string): string[] {
  return sentence
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(' ')
    .filter((word) => word !== '' && word !== "'");
}

/** counts[n - 1]: each n-gram ("w1 w2 …") and how often it occurs, sentences padded with <s> and </s>. */
function countNgrams(sentences: readonly string[], order: number): Array<Map<string, number>> {
  const counts = Array.from({ length: order }, () => new Map<string, number>());
  for (const sentence of sentences) {
    const words = [START, ...sentenceWords(sentence), END];
    for (let n = 1; n <= order; n++)
      for (let i = 0; i + n <= words.length; i++) {
        const key = words.slice(i, i + n).join(' ');
        counts[n - 1].set(key, (counts[n - 1].get(key) ?? 0) + 1);
      }
  }
  return counts;
}

class BackoffModel {
  /** Per order: the discount, and per history its total count and the n-grams that extend it. */
  private readonly discounts: number[] = [];
  private readonly histories: Array<Map<string, { total: number; followers: string[] }>> = [];
  private readonly unigramTotal: number;
  private readonly backoffs = new Map<string, number>();

  constructor(
    private readonly counts: Array<Map<string, number>>,
    private readonly order: number,
  ) {
    this.unigramTotal = [...counts[0].entries()]
      .filter(([word]) => word !== START)
      .reduce((sum, [, count]) => sum + count, 0);
    for (let n = 1; n <= order; n++) {
      const ofOrder = [...counts[n - 1].values()];
      const once = ofOrder.filter((c) => c === 1).length;
      const twice = ofOrder.filter((c) => c === 2).length;
      // Some mass is always left for unseen words, however repetitive the sentences.
      const discount = once + twice === 0 ? 0.5 : once / (once + 2 * twice);
      this.discounts[n - 1] = Math.min(0.9, Math.max(0.1, discount));
      const histories = new Map<string, { total: number; followers: string[] }>();
      if (n > 1)
        for (const [key, count] of counts[n - 1]) {
          const history = key.slice(0, key.lastIndexOf(' '));
          const seen = histories.get(history) ?? { total: 0, followers: [] };
          seen.total += count;
          seen.followers.push(key);
          histories.set(history, seen);
        }
      this.histories[n - 1] = histories;
    }
  }

  /** P(last word | the words before it), backing off to shorter histories. */
  probability(words: string[]): number {
    const n = words.length;
    if (n === 1) {
      // A little of the mass goes to every word alike, so none is impossible.
      const vocabulary = this.counts[0].size - 1;
      const count = this.counts[0].get(words[0]) ?? 0;
      return 0.95 * (count / this.unigramTotal) + 0.05 / vocabulary;
    }
    const history = words.slice(0, -1).join(' ');
    const seen = this.histories[n - 1].get(history);
    const lower = this.probability(words.slice(1));
    if (!seen) return lower;
    const count = this.counts[n - 1].get(words.join(' ')) ?? 0;
    if (count > 0) return (count - this.discounts[n - 1]) / seen.total;
    return this.backoffWeight(words.slice(0, -1)) * lower;
  }

  /** The weight of the shorter history for words never seen after `history`. */
  backoffWeight(history: string[]): number {
    const key = history.join(' ');
    const cached = this.backoffs.get(key);
    if (cached !== undefined) return cached;
    const n = history.length + 1;
    const seen = n <= this.order ? this.histories[n - 1].get(key) : undefined;
    let weight = 1;
    if (seen) {
      let seenMass = 0;
      let lowerMass = 0;
      for (const ngram of seen.followers) {
        const count = this.counts[n - 1].get(ngram)!;
        seenMass += (count - this.discounts[n - 1]) / seen.total;
        lowerMass += this.probability(ngram.split(' ').slice(1));
      }
      weight = (1 - seenMass) / Math.max(1e-9, 1 - lowerMass);
    }
    this.backoffs.set(key, weight);
    return weight;
  }
}
