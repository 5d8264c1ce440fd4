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
  const text = normalise(raw);
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

function normalise(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
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
