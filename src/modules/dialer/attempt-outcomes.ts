import { Injectable } from '@nestjs/common';
import { Database } from '../../database';
import type { AnswerOutcome } from '@app/contracts';
import { type BatchRow, DEFAULT_RETRY_ON, type RetryOutcome } from '../batches/batches.schema';
import { BatchCountersRepository } from '../call-records/batch-counters.repository';
import type { CallStatus, PhoneLogRow } from '../call-records/call-records.schema';
import type { RecordNextState } from '../call-records/phone-logs.repository';
import { AttemptOutcomesRepository, type EndedRecord } from './attempt-outcomes.repository';
import { windowOf } from './batch-window';
import { nextAllowedAt } from './calling-window';
import { interrupted } from './progress-rules';
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

/**
 * The batch's `retryOn` word for how an attempt ended: its final status, and for a machine what
 * the voice agent heard answer (a full mailbox, a fax); null for endings never retried.
 */
export function retryOutcomeOf(
  status: CallStatus,
  answerOutcome: AnswerOutcome | null,
): RetryOutcome | null {
  switch (status) {
    case 'busy':
      return 'busy';
    case 'no-answer':
      return 'no_answer';
    case 'failed':
      return 'failed';
    case 'voicemail':
      return answerOutcome === 'mailbox_full' || answerOutcome === 'fax'
        ? answerOutcome
        : 'voicemail';
    case 'completed':
    case 'canceled':
    case 'queued':
    case 'ringing':
    case 'in-progress':
      return null;
  }
}

export interface AttemptEnded {
  callRecordId: string;
  outcome: CallStatus;
  endedAt: Date;
  /** The ending attempt as it will be written (its end not written yet). */
  attempt: Pick<PhoneLogRow, 'id' | 'placedAt' | 'createdAt' | 'sessionEndedBy' | 'answerOutcome'>;
}

export interface NextAttempt {
  willRetry: boolean;
  nextAttemptAt: Date | null;
}

export interface AttemptDecision {
  next: NextAttempt;
  /** The record's next state, for the write that ends the attempt; null: already closed. */
  record: RecordNextState | null;
}

const CLOSED: AttemptDecision = {
  next: { willRetry: false, nextAttemptAt: null },
  record: null,
};

/**
 * What happens to a call record when one of its attempts ends: another attempt (per outcome, up
 * to the batch's `retry` extra attempts, at the first time the calling window allows at least
 * `delay` seconds later) or done; the batch completes when nothing is left to place; a failed
 * attempt may trip the breaker. Decided inside the caller's transaction with the record locked
 * until its commit, just before the caller writes the attempt's final status and the record's
 * next state in one statement (PhoneLogsRepository.update), so the two never disagree. The
 * batch's counters and its completion are written at that transaction's end
 * (BatchCountersRepository).
 */
@Injectable()
export class AttemptOutcomes {
  constructor(
    private readonly database: Database,
    private readonly outcomes: AttemptOutcomesRepository,
    private readonly counters: BatchCountersRepository,
  ) {}

  async decide({
    callRecordId,
    outcome,
    endedAt,
    attempt,
  }: AttemptEnded): Promise<AttemptDecision> {
    if (!this.database.inTransaction) {
      throw new Error('decide() must run inside the transaction that ends the attempt');
    }
    // Attempts from a day before the end on: a superset of those the next attempt's state cap
    // counts (the window only counts the 24 h before the instant it tries, `delay` or more later).
    const since = new Date(endedAt.getTime() - RECENT_ATTEMPTS_WINDOW_MS);
    const ended = await this.outcomes.lockRecord(callRecordId, since, attempt.id);
    // Already closed (a replayed or late final callback): nothing more to decide.
    if (!ended || ended.record.status !== 'in_progress') return CLOSED;
    // The ending attempt as the caller writes it (a first callback may place it as it ends).
    if (attempt.createdAt >= since) ended.recent.push(attempt.placedAt ?? attempt.createdAt);
    const { record, batch } = ended;
    const dialing = batch.queueStatus !== 'completed' && !batch.isDeleted;
    // A call our own shutdown cut short is ours to make good: not the callee's, nor the
    // provider's failure; it is called again beyond the retry budget.
    const cutShort = interrupted(attempt);
    if (outcome === 'failed' && dialing && !cutShort)
      await this.tripBreakerIfFailing(batch, endedAt);
    const ending = retryOutcomeOf(outcome, attempt.answerOutcome);
    const retryOn = batch.retryOn ?? DEFAULT_RETRY_ON;
    const retried =
      cutShort || (ending !== null && retryOn.includes(ending) && record.attempts <= batch.retry);
    const nextAttemptAt = dialing && retried ? nextAttempt(ended, endedAt) : null;
    if (nextAttemptAt) {
      return {
        next: { willRetry: true, nextAttemptAt },
        record: { status: 'pending', nextAttemptAt },
      };
    }
    if (outcome === 'completed') this.counters.addCallsCompleted(batch.organizationId, batch.id);
    this.counters.completeIfDoneAtCommit(batch.organizationId, batch.id);
    return {
      next: CLOSED.next,
      record: { status: outcome === 'completed' ? 'completed' : 'failed', nextAttemptAt: null },
    };
  }

  /**
   * The breaker (constants in dialer.constants.ts): most attempts of the batch that ended in
   * the last BREAKER_WINDOW_SECONDS failed → the batch pauses with statusReason failure_rate.
   */
  private async tripBreakerIfFailing(batch: BatchRow, endedAt: Date): Promise<void> {
    if (batch.queueStatus !== 'active') return;
    const since = new Date(endedAt.getTime() - BREAKER_WINDOW_SECONDS * 1000);
    const others = await this.outcomes.endedSince(batch.id, since);
    // With the failed attempt now ending, whose end is not written yet.
    const ended = others.ended + 1;
    const failed = others.failed + 1;
    if (ended >= BREAKER_MIN_ENDED && failed >= ended * BREAKER_FAILURE_RATIO) {
      this.counters.pauseAtCommit(batch.organizationId, batch.id, 'failure_rate');
    }
  }
}

/** The first instant the window allows, `delay` after the end; null: never again. */
function nextAttempt({ batch, record, recent }: EndedRecord, endedAt: Date): Date | null {
  return nextAllowedAt(
    windowOf(batch),
    { phoneNumber: record.phoneNumber, timezone: record.contact.timezone, recentAttempts: recent },
    new Date(endedAt.getTime() + batch.delay * 1000),
  );
}
