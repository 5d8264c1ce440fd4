import { Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { rowsOf } from '../../database/rows';
import { BatchesRepository } from '../batches/batches.repository';
import { batches, type BatchRow } from '../batches/batches.schema';
import {
  type CallRecordRow,
  type CallStatus,
  callRecords,
} from '../call-records/call-records.schema';
import { windowOf } from './batch-window';
import { nextAllowedAt } from './calling-window';
import { DialerClaimsRepository } from './dialer-claims.repository';
import {
  BREAKER_FAILURE_RATIO,
  BREAKER_MIN_ENDED,
  BREAKER_WINDOW_SECONDS,
  RECENT_ATTEMPTS_WINDOW_MS,
} from './dialer.constants';

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
 * to the batch's `retry` extra attempts, at the first time the calling window allows at least
 * `delay` seconds later) or done; the batch completes when nothing is left to place; a failed
 * attempt may trip the breaker. Runs inside the caller's transaction, the one that has written
 * the attempt's final status (and ended_at), so the two never disagree.
 */
@Injectable()
export class AttemptOutcomes {
  constructor(
    private readonly database: Database,
    private readonly claims: DialerClaimsRepository,
    private readonly batches: BatchesRepository,
  ) {}

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
    if (outcome === 'failed' && dialing) await this.tripBreakerIfFailing(batch, endedAt);
    const nextAttemptAt =
      dialing && RETRIED_OUTCOMES.includes(outcome) && record.attempts <= batch.retry
        ? await this.nextAttempt(batch, record, endedAt)
        : null;
    if (nextAttemptAt) {
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
    await this.batches.completeIfDone(batch.organizationId, batch.id);
    return { willRetry: false, nextAttemptAt: null };
  }

  /** The first instant the window allows, `delay` after the end; null: never again. */
  private async nextAttempt(
    batch: BatchRow,
    record: CallRecordRow,
    endedAt: Date,
  ): Promise<Date | null> {
    const earliest = new Date(endedAt.getTime() + batch.delay * 1000);
    const recent = await this.claims.recentAttempts(
      [record.id],
      new Date(earliest.getTime() - RECENT_ATTEMPTS_WINDOW_MS),
    );
    return nextAllowedAt(
      windowOf(batch),
      {
        phoneNumber: record.phoneNumber,
        timezone: record.contact.timezone,
        recentAttempts: recent.get(record.id) ?? [],
      },
      earliest,
    );
  }

  /**
   * The breaker (constants in dialer.constants.ts): most attempts of the batch that ended in
   * the last BREAKER_WINDOW_SECONDS failed → the batch pauses with statusReason failure_rate.
   */
  private async tripBreakerIfFailing(batch: BatchRow, endedAt: Date): Promise<void> {
    if (batch.queueStatus !== 'active') return;
    const since = new Date(endedAt.getTime() - BREAKER_WINDOW_SECONDS * 1000);
    const result = await this.database.db.execute(sql`
      SELECT count(*)::int AS ended, (count(*) FILTER (WHERE call_status = 'failed'))::int AS failed
      FROM phone_logs
      WHERE batch_id = ${batch.id} AND ended_at IS NOT NULL
        AND ended_at >= ${since.toISOString()}::timestamptz`);
    const [{ ended, failed }] = rowsOf<{ ended: number; failed: number }>(result);
    if (ended >= BREAKER_MIN_ENDED && failed >= ended * BREAKER_FAILURE_RATIO) {
      await this.claims.pause(batch.id, 'failure_rate');
    }
  }
}
