/**
 * The offline embedding: no model, no download, the same vector for the same text in every
 * process. Feature hashing (Weinberger et al., 2009) of each word and of its character
 * trigrams into LOCAL_EMBEDDING_DIMENSIONS signed buckets, scaled to unit length: a passage and a
 * question that share words, or parts of words ("shiping" and "shipping", "remboursement" and
 * "refund" do not), are close. It knows no synonyms: that is what an embeddings endpoint adds.
 */
export const LOCAL_EMBEDDING_MODEL = 'offline-hash-v1';
export const LOCAL_EMBEDDING_DIMENSIONS = 512;

/** A word counts this much; its trigrams together about as much again. */
const WORD_WEIGHT = 1;
const TRIGRAMS_WEIGHT = 1;

const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;

/** Words too common to tell passages apart, in the languages customers write most here. */
const STOP_WORDS = new Set(
  // English
  (
    'a an and are as at be been but by can could did do does for from had has have how i if ' +
    'in into is it its me my no not of on or our so than that the their them then there these ' +
    'they this to us was we were what when where which who why will with would you your ' +
    // French
    'au aux avec ce ces dans de des du elle en est et il ils je la le les leur lui ma mais me ' +
    'mes mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes toi ' +
    'ton tu un une vos votre vous ' +
    // Spanish
    'al como con del el es esta este hay las lo los mi para pero por se su sus tu una uno y'
  ).split(' '),
);

/** The offline embedding of `text` (unit length; all zeros when it has no word). */
export function localEmbedding(text: string): Float32Array {
  const features = new Map<string, number>();
  const add = (feature: string, weight: number) =>
    features.set(feature, (features.get(feature) ?? 0) + weight);
  for (const word of contentWords(text)) {
    add(`w:${word}`, WORD_WEIGHT);
    const padded = `<${word}>`;
    const trigrams = padded.length - 2;
    const weight = TRIGRAMS_WEIGHT / Math.sqrt(trigrams);
    for (let i = 0; i < trigrams; i += 1) add(`t:${padded.slice(i, i + 3)}`, weight);
  }
  const vector = new Float32Array(LOCAL_EMBEDDING_DIMENSIONS);
  for (const [feature, total] of features) {
    const hash = fnv1a(feature);
    // Sublinear, 1 for one word: a word said ten times is not ten times the topic.
    const value = Math.log1p(total) / Math.LN2;
    vector[hash % LOCAL_EMBEDDING_DIMENSIONS] += hash & 0x8000_0000 ? -value : value;
  }
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (sum > 0) {
    const scale = 1 / Math.sqrt(sum);
    for (let i = 0; i < vector.length; i += 1) vector[i] *= scale;
  }
  return vector;
}

/** Lower-case words without accents, stop words and single letters. */
function contentWords(text: string): string[] {
  const plain = text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
  const words: string[] = [];
  for (const [word] of plain.matchAll(WORD)) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    words.push(word);
  }
  return words;
}

/** 32-bit FNV-1a over the UTF-16 code units: fast, and stable across processes and versions. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
