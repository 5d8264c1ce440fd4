import { pipeline } from 'node:stream';
import { BadRequestException } from '@nestjs/common';
import { CsvError, parse, type Options } from 'csv-parse';
import { invalidKeyReason, isPhoneNumberKey } from './contact-row';

/** Longer rows are refused: 50 fields of 1,000 characters fit with room to spare. */
export const MAX_CSV_ROW_BYTES = 256 * 1024;

const CSV_OPTIONS: Options = {
  bom: true,
  // Files pasted together from several sources mix line endings; auto-detection picks only one.
  record_delimiter: ['\r\n', '\n', '\r'],
  // Spaces around cells and around quoted cells; quoted content keeps its spaces.
  trim: true,
  skip_empty_lines: true,
  // ",,,," rows, which spreadsheets leave below the data.
  skip_records_with_empty_values: true,
  relax_column_count: true,
  relax_quotes: true,
  max_record_size: MAX_CSV_ROW_BYTES,
};

const CSV_PROBLEMS: Partial<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed',
  CSV_MAX_RECORD_SIZE: `a row is longer than ${MAX_CSV_ROW_BYTES / 1024} KiB`,
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by more text',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'a closing quote is followed by more text',
};

const quoteName = (name: string) => `"${name.slice(0, 64)}"`;

/** The header row's cells as column names: quotes and spaces around each name removed. */
export function headerNames(cells: string[]): string[] {
  return cells.map((cell) => cell.replace(/^['"]+|['"]+$/g, '').trim());
}

/** 400 unless phoneNumber (any letter case) is one of the column names. */
export function requirePhoneNumberColumn(names: string[]): void {
  if (names.some(isPhoneNumberKey)) return;
  const found = names.filter(Boolean).slice(0, 10).map(quoteName).join(', ');
  throw new BadRequestException(
    `The CSV header row must name a phoneNumber column (found: ${found || 'no names'})`,
  );
}

/** Column names from the header row; phoneNumber (any letter case) must be one of them. */
function readHeader(cells: string[]): string[] {
  const names = headerNames(cells);
  requirePhoneNumberColumn(names);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const name of names) {
    if (name === '') continue;
    const reason = isPhoneNumberKey(name) ? undefined : invalidKeyReason(name);
    if (reason) problems.push(`${quoteName(name)}: ${reason}`);
    else if (seen.has(name.toLowerCase())) problems.push(`${quoteName(name)}: named twice`);
    seen.add(name.toLowerCase());
  }
  if (problems.length > 0) {
    throw new BadRequestException(
      `Invalid column names in the CSV header: ${problems.slice(0, 10).join('; ')}`,
    );
  }
  return names;
}

/**
 * One object per data row, keyed by the header's column names, empty cells left out. A non-empty
 * cell with no column name gets a key that fails the field-name rule, so that row is reported as
 * invalid_field instead of silently losing data.
 */
function toRow(names: string[], cells: string[]): Record<string, string> {
  const row = Object.create(null) as Record<string, string>;
  for (let index = 0; index < cells.length; index += 1) {
    const value = cells[index];
    if (value === '') continue;
    const name = names[index] ?? '';
    row[name === '' ? `<unnamed column ${index + 1}>` : name] = value;
  }
  return row;
}

/**
 * Streams the data rows of a CSV (UTF-8, comma-separated, header row first) as objects, in
 * batches of the rows parsed so far: one await per batch rather than per row, which costs ~2 s
 * of promise bookkeeping on a million rows. A missing or invalid header, or a malformed file,
 * throws a 400; the stream is never held whole.
 */
export function csvContactRows(
  source: NodeJS.ReadableStream,
): AsyncGenerator<Record<string, string>[]> {
  return csvRows(source, readHeader);
}

/**
 * The same stream of rows with the header read by `readHeader`, which names the columns (or
 * throws a 400): for other imports (the DNC list) with their own column rules.
 */
export async function* csvRows(
  source: NodeJS.ReadableStream,
  readHeader: (cells: string[]) => string[],
): AsyncGenerator<Record<string, string>[]> {
  const parser = parse(CSV_OPTIONS);
  // Unlike pipe(), pipeline() fails the parse when the source fails (an upload over the size
  // limit), also when it failed before this point, and destroys the source when parsing stops.
  pipeline(source, parser, () => undefined);
  try {
    let names: string[] | undefined;
    for await (const first of parser as AsyncIterable<string[]>) {
      const rows: Record<string, string>[] = [];
      // The rows already parsed are read at once; the iterator waits when none are left.
      for (
        let cells: string[] | null = first;
        cells !== null;
        cells = parser.read() as string[] | null
      ) {
        if (names) rows.push(toRow(names, cells));
        else names = readHeader(cells);
      }
      if (rows.length > 0) yield rows;
    }
    if (!names) {
      throw new BadRequestException(
        'The CSV is empty: its first row must name the columns, one of them phoneNumber',
      );
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === 'number' ? ` near line ${error.lines}` : '';
      const problem = CSV_PROBLEMS[error.code] ?? 'it cannot be parsed';
      throw new BadRequestException(`Malformed CSV${line}: ${problem}`);
    }
    throw error;
  } finally {
    parser.destroy();
  }
}
