const TERMINATORS = '.!?…';
const CLOSERS = `"'”’)]»`;
// Words that come before a name or a number: their period never ends a sentence.
const TITLES = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'mx',
  'prof',
  'rev',
  'st',
  'mt',
  'vs',
  'approx',
  'cf',
]);
// Single letters, dotted abbreviations (e.g., i.e., a.m., U.S.) and "etc." end a sentence only when
// a capital letter follows.
const AMBIGUOUS = /^(?:[a-z]|(?:[a-z]\.)+[a-z]|etc)$/i;

/**
 * Cuts a reply that arrives in pieces into sentences as soon as each one ends, so speech can
 * start on the first while the model still writes the rest. A sentence ends at `.`, `!`, `?`,
 * `…` (with any closing quotes) followed by a space, or at a line break; not after a title
 * ("Dr."), inside a number ("3.5", "10.30") or after a list number at the start of a line.
 */
export class SentenceSplitter {
  private buffer = '';

  /** Adds a piece of text; returns the sentences it completed, trimmed. */
  push(text: string): string[] {
    this.buffer += text;
    const sentences: string[] = [];
    for (let end = findSentenceEnd(this.buffer); end !== -1; end = findSentenceEnd(this.buffer)) {
      const sentence = this.buffer.slice(0, end).trim();
      if (sentence !== '') sentences.push(sentence);
      this.buffer = this.buffer.slice(end);
    }
    return sentences;
  }

  /** The end of the reply: whatever is left, as one last sentence (none if only blanks). */
  flush(): string[] {
    const rest = this.buffer.trim();
    this.buffer = '';
    return rest === '' ? [] : [rest];
  }
}

/** Where the first complete sentence of `text` ends, or -1 while it may still go on. */
function findSentenceEnd(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\n') {
      if (text.slice(0, i).trim() !== '') return i + 1;
      continue;
    }
    if (!TERMINATORS.includes(char)) continue;
    let runEnd = i + 1;
    while (runEnd < text.length && TERMINATORS.includes(text[runEnd])) runEnd++;
    let end = runEnd;
    while (end < text.length && CLOSERS.includes(text[end])) end++;
    if (end >= text.length) return -1;
    if (!/\s/.test(text[end])) {
      i = end - 1;
      continue;
    }
    if (char === '.' && runEnd === i + 1) {
      const verdict = judgePeriod(text, i, end);
      if (verdict === 'wait') return -1;
      if (verdict === 'no') continue;
    }
    return end;
  }
  return -1;
}

/** Whether the lone period at `at` (then closers, then a space at `end`) ends a sentence. */
function judgePeriod(text: string, at: number, end: number): 'yes' | 'no' | 'wait' {
  const start = Math.max(text.lastIndexOf(' ', at), text.lastIndexOf('\n', at)) + 1;
  const word = text.slice(start, at).replace(/^[("'“‘[]+/, '');
  // A title, or an initial ("J. Smith").
  if (TITLES.has(word.toLowerCase()) || /^[A-Z]$/.test(word)) return 'no';
  if (/^\d+$/.test(word) && /(?:^|\n)[ \t]*$/.test(text.slice(0, start))) return 'no';
  if (!AMBIGUOUS.test(word)) return 'yes';
  const next = text.slice(end).search(/\S/);
  if (next === -1) return 'wait';
  return /[A-Z0-9]/.test(text[end + next]) ? 'yes' : 'no';
}
