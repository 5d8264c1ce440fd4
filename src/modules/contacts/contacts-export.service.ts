import { Readable } from 'node:stream';
import { Injectable, Logger, StreamableFile } from '@nestjs/common';
import type { Principal } from '../../auth/access';
import { describeUnknown } from '../../common/describe-error';
import { BatchAccessService } from '../batches/batch-access.service';
import {
  CallRecordsRepository,
  type ExportCursor,
  type ExportRow,
} from '../call-records/call-records.repository';
import { csvLines } from './csv-cells';

/** Records per keyset page: one query each, memory bounded by one page. */
export const EXPORT_PAGE_ROWS = 5_000;

/** Rows per written piece (~64 KB): short-lived strings the young generation collects. */
const ROWS_PER_WRITE = 500;

/** The latest phone log's fields, after the contact fields. */
export const CALL_COLUMNS = [
  'callStatus',
  'callDuration',
  'recordingUrl',
  'transcript',
  'requestUUID',
  'lastCalledAt',
] as const;

const FIXED_COLUMNS: ReadonlySet<string> = new Set([
  '_id',
  'phoneNumber',
  ...CALL_COLUMNS,
  'createdAt',
]);

/** A contact field named like a fixed column is written as `contact.<name>`. */
const contactColumn = (key: string) => (FIXED_COLUMNS.has(key) ? `contact.${key}` : key);

const text = (value: unknown): string | undefined =>
  value === undefined || value === null
    ? undefined
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

function recordCells(record: ExportRow, keys: readonly string[]): (string | null | undefined)[] {
  const contact = JSON.parse(record.contact) as Record<string, unknown>;
  return [
    record.id,
    record.phoneNumber,
    ...keys.map((key) => text(contact[key])),
    ...CALL_COLUMNS.map((column) => record[column]),
    record.createdAt,
  ];
}

/**
 * Streams a batch's call records as CSV: one row per record with its contact fields and its
 * latest phone log. The next page is read while one is written out, and no further until the
 * client has taken it (backpressure), so memory stays flat for any batch size.
 */
@Injectable()
export class ContactsExportService {
  private readonly logger = new Logger(ContactsExportService.name);

  constructor(
    private readonly records: CallRecordsRepository,
    private readonly access: BatchAccessService,
  ) {}

  async exportCsv(principal: Principal, batchId: string): Promise<StreamableFile> {
    const { organizationId } = principal;
    await this.access.findAccessible(principal, batchId);
    const keys = (await this.records.contactKeys(organizationId, batchId)).sort();
    const lines = Readable.from(this.lines(organizationId, batchId, keys), { highWaterMark: 1 });
    return new StreamableFile(lines, {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="batch-${batchId}.csv"`,
    }).setErrorLogger((error) =>
      // A failure mid-stream cuts the response short (never a file that looks complete).
      this.logger.error({ batchId, ...describeUnknown(error) }, 'CSV export failed'),
    );
  }

  private async *lines(
    organizationId: string,
    batchId: string,
    keys: readonly string[],
  ): AsyncGenerator<string> {
    yield csvLines([
      ['_id', 'phoneNumber', ...keys.map(contactColumn), ...CALL_COLUMNS, 'createdAt'],
    ]);
    const pageAfter = (after?: ExportCursor) => {
      const page = this.records.exportPage(organizationId, batchId, after, EXPORT_PAGE_ROWS);
      // Awaited below; a client that leaves early abandons at most this one query.
      page.catch(() => undefined);
      return page;
    };
    let next: Promise<ExportRow[]> | undefined = pageAfter();
    while (next) {
      const page: ExportRow[] = await next;
      const last = page[page.length - 1];
      // The next page is read while this one is written out.
      next =
        page.length === EXPORT_PAGE_ROWS
          ? pageAfter({ createdAt: last.cursor, id: last.id })
          : undefined;
      for (let start = 0; start < page.length; start += ROWS_PER_WRITE) {
        const rows = page.slice(start, start + ROWS_PER_WRITE);
        yield csvLines(rows.map((record) => recordCells(record, keys)));
      }
    }
  }
}
