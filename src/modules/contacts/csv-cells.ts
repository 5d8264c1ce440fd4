import { stringify } from 'csv-stringify/sync';

type Cell = string | null | undefined;

const OPTIONS = {
  record_delimiter: 'windows',
  // A cell starting with = + - @ tab or CR gets a leading apostrophe (OWASP "CSV injection").
  escape_formulas: true,
  // RFC 4180 quotes any cell with a line break; by default only the record delimiter is quoted.
  quoted_match: /[\r\n]/,
} as const;

/** CSV lines (CRLF-terminated, RFC 4180 quoting) that are safe to open in a spreadsheet. */
export function csvLines(rows: readonly (readonly Cell[])[]): string {
  return stringify(rows as Cell[][], OPTIONS);
}
