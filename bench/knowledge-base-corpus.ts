/**
 * Text and PDFs for bench/knowledge-base.ts: seeded, so every run indexes the same corpus.
 *
 * Words follow a Zipf law over a vocabulary of ~20,000: English function and domain words at
 * the top (stop words included, as in real prose), then made-up words for the long tail. So a
 * top word is in nearly every passage, a tail word in a handful, as in a real manual.
 */
import { seededRandom } from '../test/support/compliance-simulation';

const STOP_WORDS = (
  'the of and to a in is for on with that by as at from be this or an are it was not you ' +
  'your we can will if when which'
).split(' ');

const DOMAIN_WORDS = (
  'customer account order refund shipping delivery invoice payment card warranty product ' +
  'service support agent call number contact address email phone plan price discount return ' +
  'exchange policy days business hours team request ticket status tracking parcel courier ' +
  'store online website app password login security data privacy consent subscription ' +
  'renewal cancellation fee charge credit balance statement report billing tax region country ' +
  'language holiday weekend schedule appointment booking reservation confirmation reminder ' +
  'message notification settings profile device battery screen cable charger adapter manual ' +
  'installation repair replacement part model serial version update software firmware network ' +
  'router signal coverage roaming minutes texts upgrade downgrade contract term notice period ' +
  'complaint escalation manager supervisor feedback survey rating quality standard guarantee ' +
  'insurance claim damage loss theft fraud verification identity document proof receipt ' +
  'voucher coupon gift loyalty points reward member tier premium basic family business ' +
  'enterprise partner reseller supplier warehouse stock inventory backorder preorder dispatch ' +
  'pickup locker international customs duty import export currency exchange rate transfer ' +
  'bank wallet deposit withdrawal limit threshold approval review audit compliance regulation'
).split(' ');

const SYLLABLES = (
  'ka ro mi tu ve sa lo ni pe da ri xo bu fa ze no ty qua gre lin mor tesh val orn ib ul ent ' +
  'ast pra dro fen kil mun sor tav wex yol zar'
).split(' ');

/** The seeded PRNG of the simulations: the same seed gives the same corpus. */
export const random = seededRandom;

/** The words of the corpus, most frequent first. */
export const VOCABULARY: readonly string[] = buildVocabulary(20_000);

function buildVocabulary(size: number): string[] {
  const words = [...STOP_WORDS, ...DOMAIN_WORDS];
  const seen = new Set(words);
  const next = random(7);
  while (words.length < size) {
    const syllables = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < syllables; i += 1) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

const CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1) ** 1.05);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  return weights.map((weight) => (running += weight / total));
})();

/** A word drawn by its Zipf weight. */
export function zipfWord(next: () => number): string {
  const target = next();
  let low = 0;
  let high = CUMULATIVE.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (CUMULATIVE[middle] < target) low = middle + 1;
    else high = middle;
  }
  return VOCABULARY[low];
}

/** One sentence of 6–20 words, capitalised, ending with a full stop. */
export function sentence(next: () => number): string {
  const words: string[] = [];
  const length = 6 + Math.floor(next() * 15);
  for (let i = 0; i < length; i += 1) words.push(zipfWord(next));
  if (length > 10) words[Math.floor(length / 2)] += ',';
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** Paragraphs of 3–7 sentences until about `characters` of text, joined by blank lines. */
export function prose(next: () => number, characters: number): string {
  const paragraphs: string[] = [];
  let length = 0;
  while (length < characters) {
    const sentences: string[] = [];
    const count = 3 + Math.floor(next() * 5);
    for (let i = 0; i < count; i += 1) sentences.push(sentence(next));
    const paragraph = sentences.join(' ');
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}

export interface BigPdfOptions {
  /** The file stops growing at the first page that takes it past this size. */
  targetBytes: number;
  /** Text of the last page, after its prose (the phrase the benchmark searches for). */
  lastPageText: string;
  seed: number;
}

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const FONT_SIZE = 10;
const LEADING = 13;
/** Helvetica's average advance at 10 pt, near enough to lay out lines. */
const CHARACTER_WIDTH = 5;

/**
 * A PDF of many Letter pages of prose in Helvetica, as a print-to-PDF driver writes it: every
 * word placed on its own (`1 0 0 1 x y Tm (word ) Tj`), paragraphs separated by a blank line,
 * content streams uncompressed. The text parser then works through ~37 bytes per word, the
 * costly case, and the extracted text (~3.5 M characters for 20 MB) stays under
 * EXTRACTION_LIMITS.maxCharacters, so the last page is indexed.
 */
export function makeBigPdf({ targetBytes, lastPageText, seed }: BigPdfOptions): {
  pdf: Buffer;
  pages: number;
  characters: number;
} {
  const next = random(seed);
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const write = (text: string) => {
    const chunk = Buffer.from(text, 'latin1');
    chunks.push(chunk);
    size += chunk.length;
  };
  // Objects: 1 catalog, 2 pages, 3 font; then per page its page object and its content stream.
  const object = (id: number, body: string) => {
    offsets[id] = size;
    write(`${id} 0 obj\n${body}\nendobj\n`);
  };
  write('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  let characters = 0;
  let last = false;
  while (!last) {
    const id = 4 + pageIds.length * 2;
    // Page size is about constant: the page that would pass the target is the last one.
    last = size + (size / Math.max(pageIds.length, 1)) * 1.5 >= targetBytes;
    const lines = last
      ? [...layOut(prose(next, 2_000)), '', ...layOut(lastPageText)]
      : layOut(prose(next, 3_900));
    characters += lines.reduce((sum, line) => sum + line.length + 1, 0);
    const content = pageContent(lines);
    object(
      id,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
        `/Contents ${id + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
    );
    object(
      id + 1,
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    );
    pageIds.push(id);
  }
  object(
    2,
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
  );
  const count = 4 + pageIds.length * 2;
  const xref = size;
  write(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let id = 1; id < count; id += 1)
    write(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return { pdf: Buffer.concat(chunks), pages: pageIds.length, characters };
}

/** Paragraphs broken into lines that fit the text width; a blank line between paragraphs. */
function layOut(text: string): string[] {
  const perLine = Math.floor((PAGE_WIDTH - 2 * MARGIN) / CHARACTER_WIDTH);
  const lines: string[] = [];
  for (const paragraph of text.split('\n\n')) {
    if (lines.length > 0) lines.push('');
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line !== '' && line.length + 1 + word.length > perLine) {
        lines.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    if (line !== '') lines.push(line);
  }
  return lines;
}

function pageContent(lines: string[]): string {
  const operators = [`BT /F1 ${FONT_SIZE} Tf`];
  let y = PAGE_HEIGHT - MARGIN;
  for (const line of lines) {
    let x = MARGIN;
    for (const word of line.split(' ').filter(Boolean)) {
      const escaped = word.replace(/[\\()]/g, (char) => `\\${char}`);
      operators.push(`1 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)} Tm (${escaped} ) Tj`);
      x += (word.length + 1) * CHARACTER_WIDTH;
    }
    y -= LEADING;
  }
  operators.push('ET');
  return operators.join('\n');
}
