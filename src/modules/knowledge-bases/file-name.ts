/** Longest display name kept, in characters (the extension is kept when cutting). */
export const MAX_FILE_NAME_LENGTH = 200;

/** What a nameless (or entirely unprintable) upload is called. */
export const FALLBACK_FILE_NAME = 'document';

/**
 * A client's file name made safe to show and to match on: the last path segment only (either
 * slash), Unicode NFC, no control or bidi-override characters, whitespace collapsed, no leading
 * dots, at most MAX_FILE_NAME_LENGTH characters. It is only ever a display name: stored bytes
 * live under generated keys, so no name can reach outside the storage root.
 */
export function sanitizeFileName(raw: string | undefined): string {
  const segment = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = segment
    // C0/C1 controls, zero-width and bidi controls (a "txt.exe" shown as "exe.txt").
    // eslint-disable-next-line no-control-regex -- control characters are what it removes
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  if (cleaned === '') return FALLBACK_FILE_NAME;
  const characters = [...cleaned];
  if (characters.length <= MAX_FILE_NAME_LENGTH) return cleaned;
  const extension = extensionOf(cleaned);
  const keep = MAX_FILE_NAME_LENGTH - (extension ? extension.length + 1 : 0);
  const stem = characters.slice(0, keep).join('').trimEnd();
  return extension ? `${stem}.${extension}` : stem;
}

/** The lower-case extension without its dot ('' when there is none). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 || dot === fileName.length - 1) return '';
  const extension = fileName.slice(dot + 1).toLowerCase();
  return /^[a-z0-9]{1,10}$/.test(extension) ? extension : '';
}
