import { Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { rowsOf } from '../../database/rows';
import { batches, type BatchRow } from '../batches/batches.schema';
import type { AnswerOutcome } from '@app/contracts';
import {
  type CallRecordRow,
  callRecords,
  type CallStatus,
  type SessionEndedBy,
} from '../call-records/call-records.schema';
import { attemptsToNumberSince } from './number-attempts';

/** An earlier attempt of a record's current attempt series, as it ended. */
export interface SeriesEnding {
  status: CallStatus;
  answerOutcome: AnswerOutcome | null;
  endedBy: SessionEndedBy | null;
}

/** A call record whose attempt ended, locked, with its batch and its recent attempts. */
export interface EndedRecord {
  record: CallRecordRow;
  batch: BatchRow;
  /** When the attempts to its number (any batch) since the given instant were placed (or claimed). */
  recent: Date[];
  /** The other ended attempts of its current series (since its last re-dial), oldest first. */
  series: SeriesEnding[];
}

/**
 * The record's ended attempts of its current series but `endingId`, as JSON: the per-outcome
 * retry budgets count them (phone_logs_record_created_idx).
 */
const seriesEndingsOf = (endingId: string) => sql<SeriesEnding[]>`(
  SELECT coalesce(json_agg(json_build_object('status', pl.call_status,
      'answerOutcome', pl.answer_outcome, 'endedBy', pl.session_ended_by)
    ORDER BY pl.created_at, pl.id), '[]'::json)
  FROM phone_logs pl
  WHERE pl.call_record_id = ${callRecords.id} AND pl.id <> ${endingId}
    AND pl.attempt > ${callRecords.attemptsBeforeSeries}
    AND pl.call_status NOT IN ('queued', 'ringing', 'in-progress'))`;

/** The queries of AttemptOutcomes: each inside the transaction that ends the attempt. */
@Injectable()
export class AttemptOutcomesRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /**
   * The record locked until the commit, with its batch and the attempts to its number since
   * `since` in any batch of the organization but `endingId` (for the next attempt's state cap)
   * and the other endings of its current series (for the retry budgets). The batch row is held first (FOR KEY SHARE:
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
        series: seriesEndingsOf(endingId),
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
