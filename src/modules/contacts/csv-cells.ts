// Cells a spreadsheet would read as a formula (or as the start of one after a tab or CR).
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell, safe to open in a spreadsheet: a cell starting with = + - @ tab or CR gets a
 * leading apostrophe (OWASP "CSV injection"), then RFC 4180 quoting.
 */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line, CRLF-terminated as RFC 4180 has it. */
export function csvLine(values: readonly (string | null | undefined)[]): string {
  let line = '';
  for (let index = 0; index < values.length; index += 1) {
    if (index > 0) line += ',';
    line += csvCell(values[index]);
  }
  return `${line}\r\n`;
}
