import { convert as htmlToText } from 'html-to-text';
import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import type { DocumentKind } from '../document-type';
import { ExtractionError } from './extraction-error';
import { assertZipWithinLimits } from './zip-guard';

export const EXTRACTION_LIMITS = {
  /** Text kept per document; the rest is dropped. */
  maxCharacters: 5_000_000,
  /** What a DOCX may expand to, in all (its declared and its real uncompressed size). */
  maxDocxUncompressedBytes: 50 * 1024 * 1024,
};

const DOCX_MAX_ENTRIES = 10_000;

/**
 * The plain text of a document, at most `maxCharacters` of it. Content that cannot be read
 * (corrupt, encrypted, a zip bomb) throws ExtractionError, whose message is shown to the client.
 */
export async function extractText(kind: DocumentKind, bytes: Buffer): Promise<string> {
  const { maxCharacters } = EXTRACTION_LIMITS;
  switch (kind) {
    case 'pdf':
      return pdfText(bytes, maxCharacters);
    case 'docx':
      return docxText(bytes, maxCharacters);
    case 'html':
      return capped(
        htmlToText(decodeUtf8(bytes), {
          wordwrap: false,
          limits: { maxInputLength: maxCharacters * 4 },
          selectors: [
            { selector: 'a', options: { ignoreHref: true } },
            { selector: 'img', format: 'skip' },
          ],
        }),
        maxCharacters,
      );
    case 'txt':
    case 'md':
    case 'csv':
      return capped(decodeUtf8(bytes), maxCharacters);
  }
}

async function pdfText(bytes: Buffer, maxCharacters: number): Promise<string> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    throw new ExtractionError(`The PDF cannot be read: ${(error as Error).message}`);
  }
  try {
    const pages: string[] = [];
    let length = 0;
    // Page by page, so a huge PDF stops costing work once the cap is reached.
    for (let number = 1; number <= pdf.numPages && length < maxCharacters; number += 1) {
      // pdf.js (no worker thread here) chains only promises, which never let I/O in: a 20 MB
      // PDF held the event loop for 25 s (docs/benchmarks.md, Knowledge bases). One macrotask
      // turn per page lets requests through between pages.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('');
      page.cleanup();
      pages.push(text);
      length += text.length + 2;
    }
    return capped(pages.join('\n\n'), maxCharacters);
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw new ExtractionError(`The PDF cannot be read: ${(error as Error).message}`);
  } finally {
    await pdf.destroy();
  }
}

async function docxText(bytes: Buffer, maxCharacters: number): Promise<string> {
  assertZipWithinLimits(bytes, {
    maxTotalBytes: EXTRACTION_LIMITS.maxDocxUncompressedBytes,
    maxEntries: DOCX_MAX_ENTRIES,
  });
  try {
    const { value } = await mammoth.extractRawText({ buffer: bytes });
    return capped(value, maxCharacters);
  } catch (error) {
    throw new ExtractionError(`The DOCX cannot be read: ${(error as Error).message}`);
  }
}

function decodeUtf8(bytes: Buffer): string {
  // Detection checked the start; a bad byte further on becomes U+FFFD rather than a failure.
  return new TextDecoder('utf-8').decode(bytes);
}

function capped(text: string, maxCharacters: number): string {
  return text.length > maxCharacters ? text.slice(0, maxCharacters) : text;
}
