export interface ChunkOptions {
  /** Longest passage, in characters. */
  size: number;
  /** Characters a passage repeats from the end of the one before (a sentence cut in two is whole in one of them). */
  overlap: number;
}

export const PASSAGE_CHUNKING: ChunkOptions = { size: 1_000, overlap: 200 };

/**
 * Cuts text into passages of at most `size` characters, each starting `overlap` characters
 * before the previous one ended. Cuts fall on a paragraph break, else a sentence end, else a
 * space, in the second half of the window; a word is cut only when it alone is longer than
 * that. Whitespace is normalised first; empty passages are dropped.
 */
export function chunkText(
  raw: string,
  { size, overlap }: ChunkOptions = PASSAGE_CHUNKING,
): string[] {
  if (size < 1 || overlap < 0 || overlap >= size) {
    throw new Error('chunkText needs size ≥ 1 and 0 ≤ overlap < size');
  }
  const text = normaliseWhitespace(raw);
  const passages: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    if (end < text.length) end = cutPoint(text, start, end);
    const passage = text.slice(start, end).trim();
    if (passage !== '') passages.push(passage);
    if (end >= text.length) break;
    start = nextStart(text, start, end, overlap);
  }
  return passages;
}

/** One character of what `\s` matches, but the line breaks (\n, and \r, which ends a line too). */
const BLANK = /[^\S\n\r]/;

/**
 * Line breaks as \n, each run of other whitespace as one space, none beside a line break, at
 * most one blank line, nothing at either end. One pass over the characters: a regular
 * expression over a run of megabytes of spaces overflowed V8's backtracking stack (RangeError)
 * once the expression had been compiled to native code.
 */
export function normaliseWhitespace(text: string): string {
  const parts: string[] = [];
  let runStart = -1;
  let breaks = 0;
  let blank = false;
  let written = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\n' || char === '\r') {
      // \r\n is one break.
      if (char === '\n' && text[i - 1] === '\r') continue;
      breaks += 1;
      blank = false;
      flush(i);
      continue;
    }
    if (BLANK.test(char)) {
      blank ||= breaks === 0;
      flush(i);
      continue;
    }
    if (runStart === -1) {
      if (written && breaks > 0) parts.push(breaks > 1 ? '\n\n' : '\n');
      else if (written && blank) parts.push(' ');
      breaks = 0;
      blank = false;
      runStart = i;
    }
  }
  flush(text.length);
  return parts.join('');

  function flush(end: number): void {
    if (runStart === -1) return;
    parts.push(text.slice(runStart, end));
    runStart = -1;
    written = true;
  }
}

/** Where to end a window [start, end): the best break in its second half, else `end`. */
function cutPoint(text: string, start: number, end: number): number {
  const floor = start + Math.floor((end - start) / 2);
  const window = text.slice(floor, end + 1);
  for (const pattern of [/\n\n/g, /[.!?]["')\]]?\s/g, /\s/g]) {
    let last = -1;
    for (const match of window.matchAll(pattern)) last = match.index + match[0].length;
    if (last > 0) return Math.min(floor + last, end);
  }
  return end;
}

/** The next passage starts `overlap` before `end`, moved forward to the start of a word. */
function nextStart(text: string, start: number, end: number, overlap: number): number {
  let next = Math.max(end - overlap, start + 1);
  if (next < end && /\S/.test(text[next - 1] ?? ' ')) {
    const space = text.slice(next, end).search(/\s/);
    next = space === -1 ? end : next + space + 1;
  }
  return next;
}
