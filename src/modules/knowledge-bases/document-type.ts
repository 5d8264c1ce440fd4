import { fileTypeFromBuffer } from 'file-type';
import { extensionOf } from './file-name';

/** The kinds of document whose text is extracted and searched. */
export const DOCUMENT_KINDS = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
} as const;

export type DocumentKind = keyof typeof DOCUMENT_KINDS;

/** Text formats have no magic bytes: their extension names them once the bytes look like text. */
const TEXT_EXTENSIONS: Record<string, DocumentKind> = {
  txt: 'txt',
  text: 'txt',
  md: 'md',
  markdown: 'md',
  csv: 'csv',
  html: 'html',
  htm: 'html',
};

/** Bytes of the start of a file that type detection looks at. */
export const TYPE_SNIFF_BYTES = 64 * 1024;

export const SUPPORTED_TYPES_TEXT = 'PDF, DOCX, and UTF-8 text named .txt, .md, .csv or .html';

/** The file is not a supported document; the message says why (415). */
export class UnsupportedDocumentError extends Error {}

/**
 * Decides a document's kind from its first bytes and its name. Formats with a signature (PDF,
 * DOCX) are recognised by their bytes whatever the name says; any other signature (an
 * executable, an image, an archive…) is refused, even named `x.pdf`. Bytes with no signature
 * must look like UTF-8 text, and then the extension says which text format it is.
 *
 * @param head the first TYPE_SNIFF_BYTES of the file (all of it when shorter)
 * @param complete whether `head` is the whole file
 */
export async function detectDocumentKind(
  head: Buffer,
  fileName: string,
  complete: boolean,
): Promise<DocumentKind> {
  if (head.length === 0) throw new UnsupportedDocumentError(`${fileName} is empty`);
  const detected = await fileTypeFromBuffer(head);
  if (detected?.mime === DOCUMENT_KINDS.pdf) return 'pdf';
  if (detected?.mime === DOCUMENT_KINDS.docx) return 'docx';
  if (detected) {
    throw new UnsupportedDocumentError(
      `${fileName} is ${detected.mime} (.${detected.ext}); supported: ${SUPPORTED_TYPES_TEXT}`,
    );
  }
  if (!looksLikeText(head, complete)) {
    throw new UnsupportedDocumentError(
      `${fileName} is neither a PDF, a DOCX nor UTF-8 text; supported: ${SUPPORTED_TYPES_TEXT}`,
    );
  }
  const kind = TEXT_EXTENSIONS[extensionOf(fileName)];
  if (!kind) {
    throw new UnsupportedDocumentError(
      `${fileName} is text, but its name does not end in .txt, .md, .csv or .html`,
    );
  }
  return kind;
}

/** A kind from a stored media type (the inverse of DOCUMENT_KINDS). */
export function kindOfContentType(contentType: string): DocumentKind | undefined {
  return (Object.keys(DOCUMENT_KINDS) as DocumentKind[]).find(
    (kind) => DOCUMENT_KINDS[kind] === contentType,
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Tab, line feed, form feed, carriage return. */
const ALLOWED_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d]);

/**
 * UTF-8 (an optional BOM) without NUL bytes, and at most 1 in 100 characters a control other
 * than tab, line feed, form feed or carriage return. A head cut mid-character is allowed to end
 * in an incomplete sequence.
 */
export function looksLikeText(head: Buffer, complete: boolean): boolean {
  if (head.includes(0)) return false;
  let text: string | undefined;
  // A cut head may end inside a character of up to 4 bytes.
  for (let cut = 0; cut <= (complete ? 0 : 3) && text === undefined; cut += 1) {
    try {
      text = utf8.decode(head.subarray(0, head.length - cut));
    } catch {
      text = undefined;
    }
  }
  if (text === undefined) return false;
  let controls = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if ((code < 0x20 && !ALLOWED_CONTROLS.has(code)) || code === 0x7f) controls += 1;
  }
  return controls * 100 <= text.length;
}
