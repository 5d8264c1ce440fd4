import { and, asc, eq, isNotNull, isNull, lte, min, or } from 'drizzle-orm';
import { Semaphore } from '../../src/common/semaphore';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import { callRecords, phoneLogs } from '../../src/modules/call-records/call-records.schema';
import { AttemptEndings, type AttemptEnd } from '../../src/modules/dialer/attempt-endings';
import { AttemptsRepository } from '../../src/modules/dialer/attempts.repository';
import type { DialerHarness } from './dialer-harness';
import type { TestApp } from './test-app';

// The steps of the scheduler simulation's loop (scheduler-simulation.ts) that read or end what
// the scheduler did: ending the live attempts, resuming a tripped batch, the next due time.

/** Outcomes the callee gives, seeded: a third answer, the rest earn retries. */
const OUTCOMES: Array<[AttemptEnd['status'], number]> = [
  ['completed', 0.35],
  ['busy', 0.2],
  ['no-answer', 0.25],
  ['voicemail', 0.14],
  ['failed', 0.06],
];
/** How long a placed call lasts in simulated time before it ends. */
export const CALL_SECONDS = 90;

/** A placed attempt still live: the simulation ends it. */
export interface LiveAttempt {
  id: string;
  batchId: string;
}

/** Attempts of one batch ended in one transaction: one commit and one counter write for all. */
const ENDINGS_PER_TRANSACTION = 40;
/** Transactions of different batches at once (the pool has 10 connections). */
const BATCHES_AT_ONCE = 6;

/**
 * Ends each live attempt with a seeded outcome, as final callbacks would, through the dialer's
 * ending path (AttemptEndings in a transaction holding the attempt's lock). The outcomes are
 * drawn in the order given (fixed, so the same attempts get the same outcomes run after run).
 * Each batch's attempts are ended in transactions of up to ENDINGS_PER_TRANSACTION, one after
 * another, while other batches end theirs at the same time: no two transactions want the same
 * batch's counter rows, and a transaction writes them once for all its endings.
 */
export async function endAll(t: TestApp, live: LiveAttempt[], random: () => number, endedAt: Date) {
  const database = t.app.get(Database);
  const attempts = t.app.get(AttemptsRepository);
  const endings = t.app.get(AttemptEndings);
  const gate = new Semaphore(BATCHES_AT_ONCE);
  const outcomes = new Map(live.map(({ id }) => [id, pick(random())]));
  const end = async (id: string) => {
    const attempt = await attempts.lock(id);
    if (!attempt) return;
    const status = outcomes.get(id)!;
    await endings.end(attempt, {
      status,
      endedReason: 'simulation',
      failureReason: status === 'busy' ? 'busy' : 'unknown',
      durationSeconds: status === 'completed' ? CALL_SECONDS : 0,
      endedAt,
    });
  };
  await Promise.all(
    [...byBatch(live).values()].map(async (ids) => {
      for (let i = 0; i < ids.length; i += ENDINGS_PER_TRANSACTION) {
        const chunk = ids.slice(i, i + ENDINGS_PER_TRANSACTION);
        await gate.run(() =>
          database.transaction(async () => {
            for (const id of chunk) await end(id);
          }),
        );
      }
    }),
  );
}

/** Each batch's attempt ids, in the order given. */
function byBatch(live: LiveAttempt[]): Map<string, string[]> {
  const batches = new Map<string, string[]>();
  for (const { id, batchId } of live) {
    const ids = batches.get(batchId);
    if (ids) ids.push(id);
    else batches.set(batchId, [id]);
  }
  return batches;
}

function pick(roll: number): AttemptEnd['status'] {
  let sum = 0;
  for (const [status, share] of OUTCOMES) {
    sum += share;
    if (roll < sum) return status;
  }
  return 'completed';
}

/**
 * A batch the breaker paused (a run of `failed` outcomes among few endings) is resumed through
 * the real route, as an operator would: the simulation is about windows, not the breaker.
 */
export async function resumeTripped(
  harness: DialerHarness,
  organizationId: string,
): Promise<number> {
  const paused = await harness.t.app
    .get(Database)
    .db.select({ id: batches.id })
    .from(batches)
    .where(and(eq(batches.organizationId, organizationId), eq(batches.queueStatus, 'paused')));
  for (const { id } of paused) {
    const response = await harness.t.http
      .post(`/api/call/batches/${id}/resume`)
      .set('Authorization', `Bearer ${harness.admin.token}`);
    if (response.status >= 300) throw new Error(`resume ${id}: ${response.status}`);
  }
  return paused.length;
}

/** 'now' when a pending record is due, else the earliest next_attempt_at; 'done' when none. */
export async function nextDue(
  t: TestApp,
  organizationId: string,
  now: Date,
): Promise<'now' | 'done' | Date> {
  const db = t.app.get(Database).db;
  const pending = and(
    eq(callRecords.organizationId, organizationId),
    eq(callRecords.status, 'pending'),
  );
  const [due] = await db
    .select({ id: callRecords.id })
    .from(callRecords)
    .where(and(pending, or(isNull(callRecords.nextAttemptAt), lte(callRecords.nextAttemptAt, now))))
    .limit(1);
  if (due) return 'now';
  const [{ next }] = await db
    .select({ next: min(callRecords.nextAttemptAt) })
    .from(callRecords)
    .where(and(pending, isNotNull(callRecords.nextAttemptAt)));
  return next ? new Date(next) : 'done';
}

/** Every attempt of the organization, oldest first per record (for the audit). */
export function attemptsOf(t: TestApp, organizationId: string) {
  return t.app
    .get(Database)
    .db.select({
      id: phoneLogs.id,
      callRecordId: phoneLogs.callRecordId,
      batchId: phoneLogs.batchId,
      callStatus: phoneLogs.callStatus,
      placedAt: phoneLogs.placedAt,
      endedAt: phoneLogs.endedAt,
      permit: phoneLogs.permit,
    })
    .from(phoneLogs)
    .where(eq(phoneLogs.organizationId, organizationId))
    .orderBy(asc(phoneLogs.callRecordId), asc(phoneLogs.attempt));
}
