import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs');

/**
 * A fenced block of a page under docs/ and the marker on the line before it (after a blank
 * line): `<!-- file: path -->` (the block is that file, word for word), `<!-- run: bash -->` (a
 * test runs it as it is) or `<!-- skip: why -->` (it needs what a test cannot have).
 */
export interface DocBlock {
  doc: string;
  kind: 'file' | 'run' | 'skip' | undefined;
  marker: string;
  lang: string;
  code: string;
}

const BLOCK = /(?:<!-- (file|run|skip): ([^\n]*?) -->\n\n)?```(\w*)\n([\s\S]*?)```\n/g;

/** Every fenced block of docs/*.md (or of one page), in page order. */
export async function docBlocks(page?: string): Promise<DocBlock[]> {
  const names = page ? [page] : (await readdir(DOCS)).filter((file) => file.endsWith('.md'));
  const found: DocBlock[] = [];
  for (const doc of names) {
    const text = await readFile(join(DOCS, doc), 'utf8');
    for (const [, kind, marker, lang, code] of text.matchAll(BLOCK)) {
      found.push({ doc, kind: kind as DocBlock['kind'], marker: marker ?? '', lang, code });
    }
  }
  return found;
}
