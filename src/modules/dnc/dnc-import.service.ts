import {
  BadRequestException,
  Injectable,
  Logger,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from '../../auth/access';
import { type AppConfig, InjectConfig } from '../../config';
import { Database } from '../../database';
import { CSV_FILE_FIELD, withCsvUpload } from '../contacts/csv-upload';
import {
  type ImportReport,
  ImportReportBuilder,
  type ImportRowError,
  rowError,
} from '../contacts/import-report';
import { assertReadableDncFile, DNC_FILES, dncFileRows } from './dnc-file';
import { prepareDncRow } from './dnc-row';
import { DncRepository, type ImportedDncEntry } from './dnc.repository';

/**
 * Rows per transaction. Each takes the organization's dialing lock, which stalls its claims
 * while held: a chunk holds it for one INSERT and one UPDATE, so dialing goes on between chunks
 * of a long import.
 */
export const DNC_IMPORT_CHUNK_ROWS = 1_000;

/** The contacts import's report, plus the numbers that were on the list already. */
export interface DncImportReport extends ImportReport {
  alreadyListed: number;
}

interface Chunk {
  rows: number;
  entries: ImportedDncEntry[];
  seen: Set<string>;
  /** Rows whose number came earlier in this chunk. */
  repeated: number;
  /** Invalid rows, in row order. */
  errors: ImportRowError[];
}

const newChunk = (): Chunk => ({ rows: 0, entries: [], seen: new Set(), repeated: 0, errors: [] });

/** Counts the row into the chunk: an entry to list, a repeat, or an invalid row. */
function addRow(chunk: Chunk, row: number, values: unknown): void {
  chunk.rows += 1;
  const prepared = prepareDncRow(values);
  if (!prepared.ok) {
    chunk.errors.push(rowError(row, prepared));
    return;
  }
  const { phoneNumber, type, source } = prepared;
  if (chunk.seen.has(phoneNumber)) {
    chunk.repeated += 1;
    return;
  }
  chunk.seen.add(phoneNumber);
  chunk.entries.push({ phoneNumber, type, source });
}

/**
 * Imports numbers into the organization's DNC list from an uploaded CSV or JSON file. The file
 * is received whole into a temporary file, read through once to refuse a malformed one before
 * anything is stored, then streamed again in chunks of DNC_IMPORT_CHUNK_ROWS rows: each chunk
 * lists its new numbers and withdraws their pending calls (as DNC add does) in one transaction
 * under the dialing lock, so no claim dials a number on a list older than its chunk. Idempotent
 * per number: a number already listed, or listed earlier in the file, counts as alreadyListed.
 */
@Injectable()
export class DncImportService {
  private readonly logger = new Logger(DncImportService.name);

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly dnc: DncRepository,
  ) {}

  async importUpload(principal: Principal, request: Request): Promise<DncImportReport> {
    if (!request.is('multipart/form-data')) {
      throw new UnsupportedMediaTypeException(
        `Send multipart/form-data with the list in the ${CSV_FILE_FIELD} field: a CSV or a JSON array`,
      );
    }
    const maxBytes = this.config.storage.uploadMaxBytes;
    return withCsvUpload(request, maxBytes, { accept: DNC_FILES }, async ({ file }) => {
      if (!file) {
        throw new BadRequestException(
          `The request needs the list in a file field named ${CSV_FILE_FIELD} (a CSV or a JSON array)`,
        );
      }
      await assertReadableDncFile(file);
      return this.importRows(principal, dncFileRows(file));
    });
  }

  /** Rows arriving in batches (a stream parser's output); row numbers count across batches. */
  async importRows(
    principal: Principal,
    batches: AsyncIterable<unknown[]>,
  ): Promise<DncImportReport> {
    const report = new ImportReportBuilder();
    const totals = { alreadyListed: 0, withdrawn: 0 };
    let chunk = newChunk();
    let row = 0;
    for await (const batch of batches) {
      for (const values of batch) {
        row += 1;
        addRow(chunk, row, values);
        if (chunk.rows >= DNC_IMPORT_CHUNK_ROWS) {
          await this.write(principal, chunk, report, totals);
          chunk = newChunk();
        }
      }
    }
    if (chunk.rows > 0) await this.write(principal, chunk, report, totals);
    const result = { ...report.build(), alreadyListed: totals.alreadyListed };
    this.logger.log(
      `DNC import: ${result.received} row(s), ${result.imported} added, ` +
        `${result.alreadyListed} already listed, ${result.rejected} invalid; ` +
        `${totals.withdrawn} pending call(s) withdrawn`,
    );
    return result;
  }

  private async write(
    { organizationId, userId: createdByUserId }: Principal,
    chunk: Chunk,
    report: ImportReportBuilder,
    totals: { alreadyListed: number; withdrawn: number },
  ): Promise<void> {
    const { added, withdrawn } = await this.database.transaction(async () => {
      await this.dnc.lockDialing(organizationId);
      const listed = await this.dnc.createMany(organizationId, createdByUserId, chunk.entries);
      return {
        added: listed.length,
        withdrawn: await this.dnc.markPendingAsDoNotCall(organizationId, listed),
      };
    });
    report.countReceived(chunk.rows);
    report.countImported(added);
    totals.alreadyListed += chunk.entries.length - added + chunk.repeated;
    totals.withdrawn += withdrawn;
    for (const error of chunk.errors) report.reject(error);
  }
}
