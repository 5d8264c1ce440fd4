import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../config';
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

/** Whether an ending earns another attempt, and how long after the end it comes at the earliest. */
export interface RetryDecision {
  retried: boolean;
  delaySeconds: number;
}

/**
 * The retry rule of one ending (`ending`, in retryOn words; null: never retried) of a record's
 * attempt series, which began with its first attempt or its last re-dial. `attempts`: the
 * attempts the series placed, this one included; `earlier`: how its other attempts ended (null
 * for an ending never retried or one our drain cut short).
 * - An outcome the batch's `retryPolicy` names follows its rule alone: retried while the series'
 *   endings with that outcome, this one included, number at most its `attempts`; after its
 *   `delay` (absent: the batch's).
 * - Any other outcome follows the batch: retried when `retryOn` names it, while the series'
 *   attempts not ended with a named outcome, this one included, number at most `retry` (so at
 *   most `retry` retries); after `delay`. Without a policy that is every attempt: the rule as it always was.
 */
export function retryRule(
  batch: Pick<BatchRow, 'retry' | 'retryOn' | 'delay' | 'retryPolicy'>,
  ending: RetryOutcome | null,
  series: { attempts: number; earlier: Array<RetryOutcome | null> },
): RetryDecision {
  const policy = batch.retryPolicy ?? {};
  const own = ending === null ? undefined : policy[ending];
  if (own) {
    const endings = series.earlier.filter((earlier) => earlier === ending).length + 1;
    return { retried: endings <= own.attempts, delaySeconds: own.delay ?? batch.delay };
  }
  const named = series.earlier.filter((earlier) => earlier !== null && policy[earlier]).length;
  const retryOn = batch.retryOn ?? DEFAULT_RETRY_ON;
  return {
    retried: ending !== null && retryOn.includes(ending) && series.attempts - named <= batch.retry,
    delaySeconds: batch.delay,
  };
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
 * What happens to a call record when one of its attempts ends: another attempt (retryRule: per
 * outcome, the batch's retryPolicy or its `retry` extra attempts; at the first time the calling
 * window allows at least the delay later, if a claim could take it before the batch's endAt) or done; the batch completes when nothing is left to place; a failed
 * attempt may trip the breaker. Decided inside the caller's transaction with the record locked
 * until its commit, just before the caller writes the attempt's final status and the record's
 * next state in one statement (PhoneLogsRepository.update), so the two never disagree. The
 * batch's counters and its completion are written at that transaction's end
 * (BatchCountersRepository).
 */
@Injectable()
export class AttemptOutcomes {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
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
    const rule = retryRule(batch, retryOutcomeOf(outcome, attempt.answerOutcome), {
      attempts: record.attempts - record.attemptsBeforeSeries,
      earlier: ended.series.map((earlier) =>
        // A call our drain cut short spends no outcome's budget (it counts toward `retry`).
        interrupted({ sessionEndedBy: earlier.endedBy })
          ? null
          : retryOutcomeOf(earlier.status, earlier.answerOutcome),
      ),
    });
    const nextAttemptAt =
      dialing && (cutShort || rule.retried)
        ? this.beforeEnd(batch, nextAttempt(ended, endedAt, rule.delaySeconds))
        : null;
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
   * The retry time if a claim could still take it before the batch's endAt (the claim holds a
   * record within the last-call margin of it); otherwise null, and the record closes now.
   */
  private beforeEnd(batch: BatchRow, at: Date | null): Date | null {
    if (!at || !batch.endAt) return at;
    const lastClaim = batch.endAt.getTime() - this.config.dialer.lastCallMarginMs;
    return at.getTime() <= lastClaim && at < batch.endAt ? at : null;
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

/** The first instant the window allows, `delaySeconds` after the end; null: never again. */
function nextAttempt(
  { batch, record, recent }: EndedRecord,
  endedAt: Date,
  delaySeconds: number,
): Date | null {
  return nextAllowedAt(
    windowOf(batch),
    { phoneNumber: record.phoneNumber, timezone: record.contact.timezone, recentAttempts: recent },
    new Date(endedAt.getTime() + delaySeconds * 1000),
  );
}
