import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import {
  type CallRecordRow,
  callRecords,
} from '../../src/modules/call-records/call-records.schema';
import { windowOf } from '../../src/modules/dialer/batch-window';
import { judgeCall, oracleCap, oracleZones } from './compliance-oracle';
import type { SchedulerSimulationRun } from './scheduler-simulation';
import { attemptsOf } from './scheduler-simulation-steps';
import type { TestApp } from './test-app';

/**
 * What the database says the scheduler did, judged without asking the dialer's rules: each
 * placed attempt (phone_logs.placed_at, written from the injected clock) against the
 * independent oracle, the DNC times, the retry budget and delay, and the state caps — the
 * law's and the callee's count: every call to the number, whichever batch placed it — and no
 * two calls to one number at once; then every contact's final state, counted.
 */
export interface SchedulerAudit {
  contacts: number;
  callsPlaced: number;
  /** Attempts with no placed_at (a refused or lost placement): none against the fake. */
  notPlaced: number;
  withoutPermit: number;
  outsideWindow: number;
  dncLeaks: number;
  overBudget: number;
  earlyRetries: number;
  capExceeded: number;
  /** Calls to a number placed while another call to it had not ended (any batch). */
  overlapping: number;
  /** The account-paced batch's calls (accountBatch). */
  accountCalls: number;
  /** Its calls placed closer together than the account's calls per second allow. */
  overAccountRate: number;
  /**
   * Its calls that would ring outside a window once the provider queues them at the account's
   * calls per second (ringing at max(placed, previous ring + 1/CPS)), by the oracle.
   */
  ringsOutsideWindow: number;
  /** Numbers in more than one batch, and the calls placed to them. */
  sharedNumbers: number;
  callsToSharedNumbers: number;
  examples: string[];
  final: Record<string, number>;
  /** Failed without a single attempt: the window never opens for them. */
  neverCallable: number;
  /** Still pending at the end, each with a next_attempt_at after the run's end (the reason). */
  pendingPastHorizon: number;
  pendingWithoutReason: number;
  callsNearDstChange: number;
  zonesCalled: number;
  dncListed: number;
  dncWithRetryScheduled: number;
  dncThroughRoute: number;
  breakerResumes: number;
  ticks: number;
  decided: number;
  /** Claim-phase wall time per decided record: over the run, and the p99 over ticks. */
  perDecisionMeanMs: number;
  perDecisionP99Ms: number;
  /** Placed calls per second of tick wall time (claims, placement against the fake, writes). */
  placedPerSecond: number;
  simulatedDays: number;
  wallSeconds: number;
}

const HOUR = 3_600_000;

export async function auditSchedulerSimulation(
  t: TestApp,
  run: SchedulerSimulationRun,
  dstChangeAt: Date,
): Promise<SchedulerAudit> {
  const records = await t.app
    .get(Database)
    .db.select()
    .from(callRecords)
    .where(eq(callRecords.organizationId, run.organizationId));
  const logs = await attemptsOf(t, run.organizationId);
  const batches = new Map(run.batches.map((batch) => [batch.id, batch]));
  const byRecord = new Map<string, typeof logs>();
  for (const log of logs)
    byRecord.set(log.callRecordId, [...(byRecord.get(log.callRecordId) ?? []), log]);

  const audit = emptyAudit(run, records.length);
  const zones = new Set<string>();
  const flag = (counter: keyof SchedulerAudit, example: string) => {
    (audit[counter] as number) += 1;
    if (audit.examples.length < 10) audit.examples.push(`${counter}: ${example}`);
  };
  // Every placed call to each number, in order, whichever batch placed it.
  const numberOf = new Map(records.map((record) => [record.id, record.phoneNumber]));
  const callsTo = new Map<string, Array<{ at: Date; endedAt: Date | null }>>();
  for (const log of logs) {
    if (!log.placedAt) continue;
    const number = numberOf.get(log.callRecordId)!;
    callsTo.set(number, [
      ...(callsTo.get(number) ?? []),
      { at: log.placedAt, endedAt: log.endedAt },
    ]);
  }
  const batchesOf = new Map<string, number>();
  for (const record of records)
    batchesOf.set(record.phoneNumber, (batchesOf.get(record.phoneNumber) ?? 0) + 1);
  for (const [number, calls] of callsTo) {
    calls.sort((a, b) => a.at.getTime() - b.at.getTime());
    if ((batchesOf.get(number) ?? 0) > 1) audit.callsToSharedNumbers += calls.length;
    for (const [i, call] of calls.entries()) {
      const before = calls[i - 1];
      if (before && (before.endedAt === null || call.at < before.endedAt))
        flag(
          'overlapping',
          `${number} called ${call.at.toISOString()} during a call from ${before.at.toISOString()}`,
        );
    }
  }
  audit.sharedNumbers = [...batchesOf.values()].filter((count) => count > 1).length;
  const callsBefore = (number: string, at: Date) =>
    (callsTo.get(number) ?? []).filter((call) => call.at < at).map((call) => call.at);
  for (const record of records) {
    audit.final[record.status] = (audit.final[record.status] ?? 0) + 1;
    const batch = batches.get(record.batchId)!;
    const attempts = byRecord.get(record.id) ?? [];
    if (record.status === 'failed' && attempts.length === 0) audit.neverCallable += 1;
    if (record.status === 'pending') {
      if (record.nextAttemptAt && record.nextAttemptAt >= run.endedAt)
        audit.pendingPastHorizon += 1;
      else audit.pendingWithoutReason += 1;
    }
    if (attempts.length > 1 + batch.retry) {
      flag(
        'overBudget',
        `${record.phoneNumber}: ${attempts.length} attempts, retry ${batch.retry}`,
      );
    }
    const timezone = record.contact.timezone;
    const listedAt = run.dncAddedAt.get(record.phoneNumber);
    for (const [i, log] of attempts.entries()) {
      if (!log.placedAt) {
        audit.notPlaced += 1;
        continue;
      }
      const at = log.placedAt;
      const previous = callsBefore(record.phoneNumber, at);
      audit.callsPlaced += 1;
      if (!log.permit) audit.withoutPermit += 1;
      const verdict = judgeCall({
        at,
        phoneNumber: record.phoneNumber,
        contactTimezone: timezone,
        batch: windowOf(batch),
        previousCalls: [...previous],
      });
      if (!verdict.legal) {
        flag(
          'outsideWindow',
          `${at.toISOString()} ${record.phoneNumber} ${verdict.violations.join('; ')}`,
        );
      }
      if (listedAt && at >= listedAt) {
        flag(
          'dncLeaks',
          `${record.phoneNumber} listed ${listedAt.toISOString()}, called ${at.toISOString()}`,
        );
      }
      const before = attempts[i - 1];
      if (before?.endedAt && at.getTime() < before.endedAt.getTime() + batch.delay * 1000) {
        flag(
          'earlyRetries',
          `${record.phoneNumber} ended ${before.endedAt.toISOString()}, again ${at.toISOString()}, delay ${batch.delay}s`,
        );
      }
      // The state cap once more by plain counting (the oracle's verdict includes it too).
      const cap = oracleCap(record.phoneNumber);
      if (batch.enforceCalleeLocalHours && cap !== null) {
        const inDay = previous.filter((p) => p.getTime() > at.getTime() - 24 * HOUR).length + 1;
        if (inDay > cap)
          flag(
            'capExceeded',
            `${record.phoneNumber}: ${inDay} calls in 24 h to ${at.toISOString()}`,
          );
      }
      if (Math.abs(at.getTime() - dstChangeAt.getTime()) <= 12 * HOUR)
        audit.callsNearDstChange += 1;
      for (const zone of oracleZones(record.phoneNumber, timezone)) zones.add(zone);
    }
  }
  audit.zonesCalled = zones.size;
  auditAccountPacing(run, records, logs, flag, audit);
  return audit;
}

/**
 * The account-paced batch as its provider would ring it: calls queued at the account's calls per
 * second, each ringing once the one before it has had its share of a second.
 */
function auditAccountPacing(
  run: SchedulerSimulationRun,
  records: CallRecordRow[],
  logs: Awaited<ReturnType<typeof attemptsOf>>,
  flag: (counter: keyof SchedulerAudit, example: string) => void,
  audit: SchedulerAudit,
): void {
  if (!run.accountPaced) return;
  const { batchId, callsPerSecond } = run.accountPaced;
  const batch = run.batches.find((row) => row.id === batchId)!;
  const recordOf = new Map(records.map((record) => [record.id, record]));
  const gapMs = 1000 / callsPerSecond;
  const placed = logs
    .filter((log) => log.batchId === batchId && log.placedAt)
    .sort((a, b) => a.placedAt!.getTime() - b.placedAt!.getTime());
  audit.accountCalls = placed.length;
  let ringsAt = -Infinity;
  for (const [i, log] of placed.entries()) {
    const at = log.placedAt!.getTime();
    const sooner = placed[i - Math.ceil(callsPerSecond)];
    if (sooner && at - sooner.placedAt!.getTime() < 1000) {
      flag('overAccountRate', `${new Date(at).toISOString()}: over ${callsPerSecond} calls/s`);
    }
    ringsAt = Math.max(at, ringsAt + gapMs);
    const record = recordOf.get(log.callRecordId)!;
    const verdict = judgeCall({
      at: new Date(ringsAt),
      phoneNumber: record.phoneNumber,
      contactTimezone: record.contact.timezone,
      batch: windowOf(batch),
      previousCalls: [],
    });
    if (!verdict.legal) {
      flag(
        'ringsOutsideWindow',
        `placed ${log.placedAt!.toISOString()}, rings ${new Date(ringsAt).toISOString()}: ${verdict.violations.join('; ')}`,
      );
    }
  }
}

function emptyAudit(run: SchedulerSimulationRun, contacts: number): SchedulerAudit {
  const decidedTicks = run.ticks.filter((tick) => tick.decided > 0);
  const perTick = decidedTicks.map((tick) => tick.claimMs / tick.decided).sort((a, b) => a - b);
  const decided = decidedTicks.reduce((sum, tick) => sum + tick.decided, 0);
  const claimMs = decidedTicks.reduce((sum, tick) => sum + tick.claimMs, 0);
  const placed = run.ticks.reduce((sum, tick) => sum + tick.placed, 0);
  const tickMs = run.ticks.reduce((sum, tick) => sum + tick.tickMs, 0);
  return {
    contacts,
    callsPlaced: 0,
    notPlaced: 0,
    withoutPermit: 0,
    outsideWindow: 0,
    dncLeaks: 0,
    overBudget: 0,
    earlyRetries: 0,
    capExceeded: 0,
    overlapping: 0,
    accountCalls: 0,
    overAccountRate: 0,
    ringsOutsideWindow: 0,
    sharedNumbers: 0,
    callsToSharedNumbers: 0,
    examples: [],
    final: {},
    neverCallable: 0,
    pendingPastHorizon: 0,
    pendingWithoutReason: 0,
    callsNearDstChange: 0,
    zonesCalled: 0,
    dncListed: run.dncAddedAt.size,
    dncWithRetryScheduled: run.dncWithRetryScheduled,
    dncThroughRoute: run.dncThroughRoute,
    breakerResumes: run.breakerResumes,
    ticks: run.ticks.length,
    decided,
    perDecisionMeanMs: decided ? claimMs / decided : 0,
    perDecisionP99Ms: perTick.length
      ? perTick[Math.min(perTick.length - 1, Math.floor(0.99 * perTick.length))]
      : 0,
    placedPerSecond: tickMs ? (placed / tickMs) * 1000 : 0,
    simulatedDays: (run.endedAt.getTime() - (run.ticks[0]?.at.getTime() ?? 0)) / (24 * HOUR),
    wallSeconds: run.wallMs / 1000,
  };
}
