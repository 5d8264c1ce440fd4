/** Distinct words of a message a search looks for at most (the rest are dropped). */
export const MAX_QUERY_WORDS = 32;

/** Words at least this long also find the words they begin ("refund" finds "refundable"). */
export const PREFIX_MIN_LENGTH = 5;

/** Letters and digits in any script; everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words of a customer's message as `to_tsquery` terms: `'what'`, `'time'`, `'open'`,
 * `'sunday':*`. The base's text search configuration then stems each one and drops its stop
 * words, and a passage holding any of them is a match (see rankByWords): "What time do you open
 * on Sunday?" finds "Opening hours: Sunday 10–4", where the web-search syntax required every
 * word. Words are quoted, so no character of the message is read as an operator; single letters
 * are dropped, and words are kept once, in order, at most MAX_QUERY_WORDS of them.
 */
export function queryTerms(message: string): string[] {
  const words = new Set<string>();
  for (const [word] of message.normalize('NFC').toLowerCase().matchAll(WORD)) {
    if (word.length < 2 && !/\p{N}/u.test(word)) continue;
    words.add(word);
    if (words.size === MAX_QUERY_WORDS) break;
  }
  return [...words].map(queryTerm);
}

/** One quoted term, a prefix match when long enough to mean something on its own. */
function queryTerm(word: string): string {
  // Only letters and digits reach here: nothing to escape inside the quotes.
  return [...word].length >= PREFIX_MIN_LENGTH ? `'${word}':*` : `'${word}'`;
}
