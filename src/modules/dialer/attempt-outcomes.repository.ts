import { Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { rowsOf } from '../../database/rows';
import { batches, type BatchRow } from '../batches/batches.schema';
import { type CallRecordRow, callRecords } from '../call-records/call-records.schema';
import { attemptsToNumberSince } from './number-attempts';

/** A call record whose attempt ended, locked, with its batch and its recent attempts. */
export interface EndedRecord {
  record: CallRecordRow;
  batch: BatchRow;
  /** When the attempts to its number (any batch) since the given instant were placed (or claimed). */
  recent: Date[];
}

/** The queries of AttemptOutcomes: each inside the transaction that ends the attempt. */
@Injectable()
export class AttemptOutcomesRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * The record locked until the commit, with its batch and the attempts to its number since
   * `since` in any batch of the organization but `endingId` (for the next attempt's state cap). The batch row is held first (FOR KEY SHARE:
   * what a cancel's FOR UPDATE waits for, counter updates do not): a cancel either committed
   * before the batch is read here, or waits until this record's next state is written, and then
   * cancels it if it went back to pending. Read after it, never a batch a cancel just completed.
   */
  async lockRecord(
    callRecordId: string,
    since: Date,
    endingId: string,
  ): Promise<EndedRecord | undefined> {
    await this.db.execute(sql`
      SELECT 1 FROM ${batches}
      WHERE id = (SELECT batch_id FROM ${callRecords} WHERE id = ${callRecordId})
      FOR KEY SHARE`);
    const [row] = await this.db
      .select({
        record: callRecords,
        batch: batches,
        recent: sql<string[]>`${attemptsToNumberSince(
          sql`${callRecords.organizationId}`,
          sql`${callRecords.phoneNumber}`,
          since,
          endingId,
        )}`,
      })
      .from(callRecords)
      .innerJoin(batches, eq(batches.id, callRecords.batchId))
      .where(eq(callRecords.id, callRecordId))
      .for('update', { of: callRecords });
    return row && { ...row, recent: row.recent.map((at) => new Date(at)) };
  }

  /** The batch's attempts that ended since `since`, and how many of them `failed`. */
  async endedSince(batchId: string, since: Date): Promise<{ ended: number; failed: number }> {
    const result = await this.db.execute(sql`
      SELECT count(*)::int AS ended, (count(*) FILTER (WHERE call_status = 'failed'))::int AS failed
      FROM phone_logs
      WHERE batch_id = ${batchId} AND ended_at IS NOT NULL
        AND ended_at >= ${since.toISOString()}::timestamptz`);
    return rowsOf<{ ended: number; failed: number }>(result)[0];
  }
}
