import { ConflictException, Injectable, Logger } from '@nestjs/common';
import { describeUnknown } from '../../common/describe-error';
import { newObjectId } from '../../common/object-id';
import { Database } from '../../database';
import { JobName, JobQueue } from '../../queue';
import { BatchesRepository } from '../batches/batches.repository';
import type { BatchRow } from '../batches/batches.schema';
import { CallRecordsRepository, ContactPayload } from '../call-records/call-records.repository';
import { prepareContact, type PreparedContact } from './contact-row';
import { csvContactRows } from './csv-contact-rows';
import {
  type ImportReport,
  ImportReportBuilder,
  type ImportRowError,
  rowError,
} from './import-report';

/** Rows per database round trip: DNC check, INSERT and counter update in one statement. */
export const IMPORT_CHUNK_ROWS = 5_000;

/** Imports that add this many rows refresh the planner statistics (ANALYZE) at the end. */
export const ANALYZE_AFTER_ROWS = 50_000;

/** The 409 of an append to a cancelled batch: cancel is final. */
export const CANCELLED_BATCH_MESSAGE =
  'A cancelled batch takes no more contacts: create a new batch for them';

/** The 409 of an append to a batch that ended at its endAt: nothing more is dialed. */
export const ENDED_BATCH_MESSAGE =
  'A batch that reached its endAt takes no more contacts: create a new batch for them';

/** Contacts may be appended to any live batch but a cancelled or ended one (409). */
export function assertTakesContacts(batch: Pick<BatchRow, 'statusReason'>): void {
  if (batch.statusReason === 'cancelled') throw new ConflictException(CANCELLED_BATCH_MESSAGE);
  if (batch.statusReason === 'end_at_reached') throw new ConflictException(ENDED_BATCH_MESSAGE);
}

/** Accepted rows serialized in `payload`, with their numbers and row numbers alongside. */
interface Chunk {
  rows: number;
  payload: ContactPayload;
  numbers: string[];
  rowNumbers: number[];
  seen: Set<string>;
  /** Rows rejected before the database, in row order. */
  errors: ImportRowError[];
}

/** A chunk, serialized into a spare payload (one a written chunk left) when there is one. */
const newChunk = (spare?: ContactPayload): Chunk => ({
  rows: 0,
  payload: spare?.reset() ?? new ContactPayload(),
  numbers: [],
  rowNumbers: [],
  seen: new Set(),
  errors: [],
});

function addRow(chunk: Chunk, row: number, prepared: PreparedContact): void {
  chunk.rows += 1;
  if (!prepared.ok) {
    chunk.errors.push(rowError(row, prepared));
  } else if (chunk.seen.has(prepared.phoneNumber)) {
    chunk.errors.push({ row, phoneNumber: prepared.phoneNumber, reason: 'duplicate_in_batch' });
  } else {
    const { phoneNumber, contact } = prepared;
    chunk.seen.add(phoneNumber);
    chunk.payload.add({ id: newObjectId(), phoneNumber, contact });
    chunk.numbers.push(phoneNumber);
    chunk.rowNumbers.push(row);
  }
}

/**
 * Appends contacts to a batch as call records. Rows stream through in chunks, so memory stays
 * flat whatever the number of rows; while one chunk is in the database the next one is read
 * and validated. Each chunk commits on its own with its totalCalls increment: an import that
 * fails halfway keeps the chunks before the failure, and the counter always matches the rows.
 * Called inside a caller's transaction (create-batch), the chunks join that transaction. The
 * caller has checked the batch (BatchAccessService) or has just created it; each chunk locks
 * the batch row and reads its status again, in its transaction: a batch cancelled meanwhile
 * answers 409 (assertTakesContacts) with nothing of that chunk stored, and a batch that had
 * completed on its own is reopened by a chunk that adds at least one record, so the dialer
 * calls the new records (a paused batch stays paused).
 */
@Injectable()
export class ContactsImportService {
  private readonly logger = new Logger(ContactsImportService.name);

  constructor(
    private readonly database: Database,
    private readonly records: CallRecordsRepository,
    private readonly batches: BatchesRepository,
    private readonly jobs: JobQueue,
  ) {}

  /** Contacts from a CSV stream (header row first, one column phoneNumber). */
  importCsv(
    organizationId: string,
    batchId: string,
    csv: NodeJS.ReadableStream,
  ): Promise<ImportReport> {
    return this.importBatches(organizationId, batchId, csvContactRows(csv));
  }

  /** Contacts as objects: `phoneNumber` plus string fields. Row numbers count from 1. */
  importRows(
    organizationId: string,
    batchId: string,
    rows: Record<string, unknown>[],
  ): Promise<ImportReport> {
    return this.importBatches(organizationId, batchId, [rows]);
  }

  /** Contacts arriving in batches of rows (a stream parser's output); rows count across batches. */
  private async importBatches(
    organizationId: string,
    batchId: string,
    batches: AsyncIterable<Record<string, unknown>[]> | Iterable<Record<string, unknown>[]>,
  ): Promise<ImportReport> {
    const report = new ImportReportBuilder();
    let writing: Promise<void> = Promise.resolve();
    let chunk = newChunk();
    // The chunk in the database (or last written): its payload is reused once the write is done.
    let written: Chunk | undefined;
    let row = 0;
    let wrote = false;
    try {
      for await (const batch of batches) {
        for (const values of batch) {
          row += 1;
          addRow(chunk, row, prepareContact(values));
          if (chunk.rows >= IMPORT_CHUNK_ROWS) {
            await writing; // one chunk in the database at a time, in row order
            const spare = written?.payload;
            written = chunk;
            writing = this.write(organizationId, batchId, chunk, report);
            wrote = true;
            // Awaited above or below; this only keeps it from counting as unhandled meanwhile.
            writing.catch(() => undefined);
            chunk = newChunk(spare);
          }
        }
      }
      await writing;
      if (chunk.rows > 0) {
        wrote = true;
        await this.write(organizationId, batchId, chunk, report);
      }
    } catch (error) {
      await writing.catch(() => undefined);
      throw error;
    } finally {
      // Chunks commit on their own, so even a failed import may have added records to index.
      if (wrote) this.indexSearchLater(organizationId, batchId);
    }
    const result = report.build();
    if (result.imported >= ANALYZE_AFTER_ROWS) await this.records.refreshStatistics();
    return result;
  }

  /**
   * Queues the search index catch-up. Search is right without it (records after the watermark
   * are matched directly), only slower, so a queue failure is logged rather than failing the import.
   */
  private indexSearchLater(organizationId: string, batchId: string): void {
    this.jobs
      .enqueue(JobName.IndexCallRecordSearch, { organizationId, batchId })
      .catch((error: unknown) => {
        const reason = JSON.stringify(describeUnknown(error));
        this.logger.warn(`Could not queue the search index of batch ${batchId}: ${reason}`);
      });
  }

  private async write(
    organizationId: string,
    batchId: string,
    chunk: Chunk,
    report: ImportReportBuilder,
  ): Promise<void> {
    const { onDnc, duplicates, added } = await this.database.transaction(async () => {
      // Before the records: BatchesRepository.completeIfDone locks this row before its check too.
      const batch = await this.batches.lockForAppend(organizationId, batchId);
      if (batch) assertTakesContacts(batch);
      // One statement for the records and totalCalls, however many rows.
      const skipped = await this.records.appendContacts(organizationId, batchId, chunk.payload);
      const inserted = chunk.payload.count - skipped.onDnc.size - skipped.duplicates.size;
      if (inserted > 0 && batch?.queueStatus === 'completed') {
        await this.batches.reopen(organizationId, batchId);
      }
      return { ...skipped, added: inserted };
    });
    report.countReceived(chunk.rows);
    report.countImported(added);
    const errors = chunk.errors;
    if (onDnc.size + duplicates.size > 0) {
      chunk.numbers.forEach((phoneNumber, index) => {
        const onList = onDnc.has(phoneNumber);
        if (!onList && !duplicates.has(phoneNumber)) return;
        errors.push({
          row: chunk.rowNumbers[index],
          phoneNumber,
          reason: onList ? 'on_dnc_list' : 'duplicate_in_batch',
        });
      });
    }
    errors.sort((a, b) => a.row - b.row);
    for (const error of errors) report.reject(error);
  }
}
