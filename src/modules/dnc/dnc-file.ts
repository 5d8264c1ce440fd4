import { BadRequestException } from '@nestjs/common';
import { isPhoneNumberKey } from '../contacts/contact-row';
import { csvRows, headerNames, requirePhoneNumberColumn } from '../contacts/csv-contact-rows';
import { type AcceptedFiles, CSV_MEDIA_TYPES, type SpooledCsv } from '../contacts/csv-upload';
import { DNC_COLUMNS } from './dnc-row';
import { jsonArrayRows } from './json-array-rows';

export const JSON_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'text/json',
  'application/x-json',
]);

/** Types that say nothing of the content: the file name's extension decides. */
const GENERIC_MEDIA_TYPES: ReadonlySet<string> = new Set([
  'application/octet-stream',
  'text/plain',
]);

/** What a DNC import's file part may be. */
export const DNC_FILES: AcceptedFiles = {
  mediaTypes: new Set([...CSV_MEDIA_TYPES, ...JSON_MEDIA_TYPES]),
  description: 'a CSV (text/csv) or a JSON array (application/json)',
};

export function isJsonFile({ mediaType, fileName }: Pick<SpooledCsv, 'mediaType' | 'fileName'>) {
  if (JSON_MEDIA_TYPES.has(mediaType)) return true;
  return GENERIC_MEDIA_TYPES.has(mediaType) && /\.json$/i.test(fileName.trim());
}

const KNOWN_COLUMNS: ReadonlySet<string> = new Set(Object.values(DNC_COLUMNS));

/**
 * A DNC CSV's header: a phoneNumber column (any letter case), optional type, reason and source
 * columns, each named once; other columns are ignored whatever their names.
 */
function readDncHeader(cells: string[]): string[] {
  const names = headerNames(cells);
  requirePhoneNumberColumn(names);
  const seen = new Set<string>();
  for (const name of names) {
    const key = isPhoneNumberKey(name) ? 'phonenumber' : name.toLowerCase();
    if (key !== 'phonenumber' && !KNOWN_COLUMNS.has(key)) continue;
    if (seen.has(key)) {
      throw new BadRequestException(`The CSV header names the column "${name}" twice`);
    }
    seen.add(key);
  }
  return names;
}

/** The rows of an uploaded DNC file, CSV or JSON, streamed from the spooled file. */
export function dncFileRows(file: SpooledCsv): AsyncGenerator<unknown[]> {
  return isJsonFile(file) ? jsonArrayRows(file.open()) : csvRows(file.open(), readDncHeader);
}

/**
 * Reads the file through once without storing anything, so that a malformed file (or one with
 * no rows) answers its 400 having changed nothing, even when the fault is near its end.
 */
export async function assertReadableDncFile(file: SpooledCsv): Promise<void> {
  let rows = 0;
  for await (const batch of dncFileRows(file)) rows += batch.length;
  if (rows === 0) {
    throw new BadRequestException(
      'The file holds no entries: a CSV needs data rows under its header, a JSON array at least one entry',
    );
  }
}
