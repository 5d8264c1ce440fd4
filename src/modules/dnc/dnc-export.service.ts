import { Readable } from 'node:stream';
import { Injectable, Logger, StreamableFile } from '@nestjs/common';
import { describeUnknown } from '../../common/describe-error';
import { csvLines } from '../contacts/csv-cells';
import { DncRepository, type DncExportCursor, type DncExportRow } from './dnc.repository';
import { toDncEntryDto } from './dnc-entry.mapper';

export type DncExportFormat = 'csv' | 'json';

/** The envelope's message of the JSON export. */
export const DNC_EXPORTED = 'Do-not-call list exported';

/** Entries per keyset page: one query each, memory bounded by one page (transcripts included). */
export const DNC_EXPORT_PAGE_ROWS = 1_000;

/** The CSV's columns; phoneNumber, type and source first: what the import reads back. */
export const DNC_CSV_COLUMNS = [
  'phoneNumber',
  'type',
  'source',
  'createdAt',
  '_id',
  'batchId',
  'callRecordId',
  'requestUUID',
  'recordingUrl',
  'transcript',
] as const;

/**
 * Streams the organization's whole DNC list, oldest first, as CSV or as JSON in the common
 * envelope (data: the entries, as the list shows them). A page is read only once the client has taken the one before (backpressure), so
 * memory stays flat for any list size; a failure mid-stream cuts the response short, never a
 * file that looks complete.
 */
@Injectable()
export class DncExportService {
  private readonly logger = new Logger(DncExportService.name);

  constructor(private readonly dnc: DncRepository) {}

  export(organizationId: string, format: DncExportFormat): StreamableFile {
    const pieces = format === 'json' ? this.json(organizationId) : this.csv(organizationId);
    return new StreamableFile(Readable.from(pieces, { highWaterMark: 1 }), {
      type: format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8',
      disposition: `attachment; filename="dnc-list.${format}"`,
    }).setErrorLogger((error) =>
      this.logger.error({ format, ...describeUnknown(error) }, 'DNC export failed'),
    );
  }

  private async *csv(organizationId: string): AsyncGenerator<string> {
    yield csvLines([[...DNC_CSV_COLUMNS]]);
    for await (const page of this.pages(organizationId)) {
      yield csvLines(
        page.map((row) => {
          const entry = toDncEntryDto(row);
          return DNC_CSV_COLUMNS.map((column) => entry[column]);
        }),
      );
    }
  }

  private async *json(organizationId: string): AsyncGenerator<string> {
    let first = true;
    const envelope = { message: DNC_EXPORTED, status: true, code: 200, errorMessage: '' };
    yield `${JSON.stringify(envelope).slice(0, -1)},"data":[`;
    for await (const page of this.pages(organizationId)) {
      const entries = page.map((row) => JSON.stringify(toDncEntryDto(row))).join(',');
      yield first ? entries : `,${entries}`;
      first = false;
    }
    yield ']}\n';
  }

  private async *pages(organizationId: string): AsyncGenerator<DncExportRow[]> {
    let after: DncExportCursor | undefined;
    for (;;) {
      const page = await this.dnc.exportPage(organizationId, after, DNC_EXPORT_PAGE_ROWS);
      if (page.length > 0) yield page;
      if (page.length < DNC_EXPORT_PAGE_ROWS) return;
      const last = page[page.length - 1];
      after = { createdAt: last.cursor, id: last.id };
    }
  }
}
