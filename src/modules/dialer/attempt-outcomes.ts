import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { batches } from '../batches/batches.schema';
import { type CallStatus, callRecords } from '../call-records/call-records.schema';

/** Final callStatus values of an attempt. */
export const FINAL_CALL_STATUSES: readonly CallStatus[] = [
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
  'voicemail',
];

/** Outcomes that earn another attempt while the batch's `retry` budget lasts. */
export const RETRIED_OUTCOMES: readonly CallStatus[] = ['busy', 'no-answer', 'voicemail', 'failed'];

export interface AttemptEnded {
  callRecordId: string;
  outcome: CallStatus;
  endedAt: Date;
}

export interface NextAttempt {
  willRetry: boolean;
  nextAttemptAt: Date | null;
}

/**
 * What happens to a call record when one of its attempts ends: another attempt (per outcome, up
 * to the batch's `retry` extra attempts, no earlier than `delay` seconds later) or done; and
 * the batch completes when nothing is left to place. Runs inside the caller's transaction, the
 * one that writes the attempt's final status, so the two never disagree.
 */
@Injectable()
export class AttemptOutcomes {
  constructor(private readonly database: Database) {}

  async attemptEnded({ callRecordId, outcome, endedAt }: AttemptEnded): Promise<NextAttempt> {
    if (!this.database.inTransaction) {
      throw new Error('attemptEnded() must run inside the transaction that ends the attempt');
    }
    const db = this.database.db;
    const [row] = await db
      .select({ record: callRecords, batch: batches })
      .from(callRecords)
      .innerJoin(batches, eq(batches.id, callRecords.batchId))
      .where(eq(callRecords.id, callRecordId))
      .for('update', { of: callRecords });
    // Already closed (a replayed or late final callback): nothing more to decide.
    if (!row || row.record.status !== 'in_progress')
      return { willRetry: false, nextAttemptAt: null };
    const { record, batch } = row;
    const dialing = batch.queueStatus !== 'completed' && !batch.isDeleted;
    if (dialing && RETRIED_OUTCOMES.includes(outcome) && record.attempts <= batch.retry) {
      const nextAttemptAt = new Date(endedAt.getTime() + batch.delay * 1000);
      await db
        .update(callRecords)
        .set({ status: 'pending', nextAttemptAt })
        .where(eq(callRecords.id, record.id));
      return { willRetry: true, nextAttemptAt };
    }
    await db
      .update(callRecords)
      .set({ status: outcome === 'completed' ? 'completed' : 'failed', nextAttemptAt: null })
      .where(eq(callRecords.id, record.id));
    if (outcome === 'completed') {
      await db
        .update(batches)
        .set({ callsCompleted: sql`${batches.callsCompleted} + 1` })
        .where(eq(batches.id, batch.id));
    }
    await this.completeIfDone(batch.id);
    return { willRetry: false, nextAttemptAt: null };
  }

  /** An active batch with no record left to place or in progress becomes completed. */
  async completeIfDone(batchId: string): Promise<boolean> {
    const done = await this.database.db
      .update(batches)
      .set({ queueStatus: 'completed' })
      .where(
        and(
          eq(batches.id, batchId),
          eq(batches.queueStatus, 'active'),
          sql`NOT EXISTS (SELECT 1 FROM ${callRecords} WHERE ${callRecords.batchId} = ${batchId}
                AND ${callRecords.status} IN ('pending', 'in_progress'))`,
        ),
      )
      .returning({ id: batches.id });
    return done.length > 0;
  }
}
