import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { Clock } from '../../src/common/clock';
import { Database } from '../../src/database';
import { batches, type BatchRow } from '../../src/modules/batches/batches.schema';
import {
  type CallStatus,
  callRecords,
  phoneLogs,
} from '../../src/modules/call-records/call-records.schema';
import { DialerClaims } from '../../src/modules/dialer/dialer-claims';
import { DialerClaimsRepository } from '../../src/modules/dialer/dialer-claims.repository';
import { DialerScheduler } from '../../src/modules/dialer/dialer-scheduler';
import type { TwilioFake } from '../fakes';
import { makePopulation, seededRandom, SIMULATED_BATCHES } from './compliance-simulation';
import { DialerHarness } from './dialer-harness';
import { SimulationDnc } from './scheduler-simulation-dnc';
import { CALL_SECONDS, endAll, nextDue, resumeTripped } from './scheduler-simulation-steps';
import type { TestApp } from './test-app';

/**
 * The compliance simulation through the real scheduler (issue #12): contacts in the database,
 * DialerScheduler.tick() on an injected clock, each placed attempt ended through AttemptEndings
 * (the dialer's ending path: AttemptOutcomes decides the retry), DNC entries added mid-run, and
 * the clock jumped to the next due time. Nothing here decides legality: the audit
 * (scheduler-simulation-audit.ts) reads what the database says happened and asks the oracle.
 * No jest here, so the benchmark (bench/dialer-scheduler.ts) runs the same code.
 */
export interface SchedulerSimulationOptions {
  contacts: number;
  /** First contacts become due from here; the run starts here. */
  from: Date;
  /** Contacts' first due times spread over [from, from + spreadMs). */
  spreadMs: number;
  /** The run stops here even if records are still pending (their window never opened). */
  horizon: Date;
  /** Numbers put on the DNC list at random simulated times during the run. */
  dncAdds: number;
  callingNumbers: number;
  /**
   * The share of contacts that are also in a second batch (another window and retry plan): the
   * per-number rules (one live call, state caps) then hold across batches.
   */
  sharedNumbers?: number;
  /**
   * A batch of its own on numbers of one provider account with this many calls per second (the
   * provider queues what goes beyond): `contacts` New York numbers all due at `dueAt`, shortly
   * before its 20:00 close, so calls placed faster than the account allows would ring after it.
   */
  accountBatch?: { contacts: number; numbers: number; callsPerSecond: number; dueAt: Date };
  /**
   * Least jump of the clock when nothing is due: records due within it wait for the next tick
   * (as they would for a slow timer), which bounds the ticks of a run.
   */
  minStepSeconds: number;
  seed?: number;
  /** Called after each tick (the benchmark prints progress). */
  onTick?: (tick: TickMeasure, live: number) => void;
}

export interface TickMeasure {
  at: Date;
  claimMs: number;
  decided: number;
  claimed: number;
  placed: number;
  tickMs: number;
}

export interface SchedulerSimulationRun {
  organizationId: string;
  batches: BatchRow[];
  /** The account-paced batch (accountBatch), and its account's calls per second. */
  accountPaced?: { batchId: string; callsPerSecond: number };
  ticks: TickMeasure[];
  /** Phone number → the simulated instant it was put on the DNC list. */
  dncAddedAt: Map<string, Date>;
  /** DNC numbers that had a retry scheduled (pending after an attempt) when listed. */
  dncWithRetryScheduled: number;
  dncThroughRoute: number;
  breakerResumes: number;
  endedAt: Date;
  wallMs: number;
  /** Wall ms of each step of the loop, summed over the run (where a run's time goes). */
  phases: Record<SimulationPhase, number>;
}

export type SimulationPhase = 'dnc' | 'tick' | 'live' | 'end' | 'resume' | 'nextDue' | 'analyze';

/**
 * Ticks between VACUUM (ANALYZE)s, what autovacuum does for a live database; a test server may
 * run without it (this box does). Without statistics the planner takes the fresh tables for
 * empty and scans call_records for the claim's `id = ANY(...)` updates; without vacuum the
 * partial due index keeps an entry for every record that stopped being pending, and each probe
 * of it visits their heap rows. Both costs grow with the campaign, and autovacuum bounds both.
 */
const ANALYZE_EVERY_TICKS = 40;

/** The dialer's settings of the simulation: room for every batch's 400 calls at once. */
export const SIMULATION_DIALER_ENV = {
  DIALER_MAX_CONCURRENT_CALLS: '2000',
  DIALER_CALLS_PER_SECOND: '1000',
};

/** A clock step when records are due but none was placed (the numbers' pacing slots). */
const BUSY_STEP_SECONDS = 1;
/** Retry budgets and delays per batch, cycled over SIMULATED_BATCHES' windows. */
const RETRY_PLANS = [
  { retry: 2, delay: 1800 },
  { retry: 4, delay: 600 },
  { retry: 1, delay: 7200 },
  { retry: 3, delay: 3600 },
  { retry: 0, delay: 0 },
];
const LIVE: CallStatus[] = ['queued', 'ringing', 'in-progress'];

/** Drives the injected Clock: assigned on the instance, so it works with and without jest. */
export class SimulatedClock {
  constructor(public current: Date) {}

  install(t: TestApp): void {
    t.app.get(Clock).now = () => new Date(this.current);
  }

  set(at: Date): void {
    if (at < this.current) throw new Error('the simulated clock went backwards');
    this.current = at;
  }

  advance(seconds: number): void {
    this.set(new Date(this.current.getTime() + seconds * 1000));
  }
}

/** Times the claim phase and counts the records it decided, around the real instances. */
function measureClaims(t: TestApp) {
  const phase = { ms: 0, held: 0, blocked: 0 };
  const claims = t.app.get(DialerClaims);
  const claimBatch = claims.claimBatch.bind(claims);
  claims.claimBatch = async (batch, now) => {
    const started = performance.now();
    try {
      return await claimBatch(batch, now);
    } finally {
      phase.ms += performance.now() - started;
    }
  };
  const repository = t.app.get(DialerClaimsRepository);
  const writeClaim = repository.writeClaim.bind(repository);
  repository.writeClaim = (batch, writes) => {
    phase.held += writes.holds.length;
    phase.blocked += writes.blocked.length;
    return writeClaim(batch, writes);
  };
  return phase;
}

export async function seedSimulation(
  t: TestApp,
  twilio: TwilioFake,
  options: SchedulerSimulationOptions,
): Promise<{ harness: DialerHarness; batches: BatchRow[] }> {
  const harness = await new DialerHarness(t, twilio).organization();
  const numbers: string[] = [];
  for (let i = 0; i < options.callingNumbers; i += 1) numbers.push((await harness.number()).id);
  const rows: BatchRow[] = [];
  for (const [index, window] of SIMULATED_BATCHES.entries()) {
    rows.push(
      await harness.calling.batch(harness.admin.organizationId, harness.admin.userId, {
        ...window,
        ...RETRY_PLANS[index % RETRY_PLANS.length],
        callingNumbers: numbers,
        maxConcurrentCalls: 400,
      }),
    );
  }
  const population = makePopulation({
    count: options.contacts,
    from: options.from.getTime(),
    spreadMs: options.spreadMs,
    seed: options.seed ?? 7,
  });
  const seen = new Set<string>();
  const db = t.app.get(Database).db;
  const shared = seededRandom((options.seed ?? 7) + 1);
  const values = population
    .filter((contact) => !seen.has(contact.phoneNumber) && seen.add(contact.phoneNumber))
    .flatMap((contact) => {
      const index = SIMULATED_BATCHES.indexOf(contact.batch);
      const inBatches = [rows[index]];
      if (shared() < (options.sharedNumbers ?? 0)) inBatches.push(rows[(index + 1) % rows.length]);
      return inBatches.map((batch) => ({
        organizationId: batch.organizationId,
        batchId: batch.id,
        phoneNumber: contact.phoneNumber,
        contact: {
          name: 'Sam',
          ...(contact.timezone ? { timezone: contact.timezone } : {}),
        },
        nextAttemptAt: new Date(contact.firstDueAt),
      }));
    });
  for (let i = 0; i < values.length; i += 1000) {
    await db.insert(callRecords).values(values.slice(i, i + 1000));
  }
  if (options.accountBatch) {
    rows.push(await seedAccountBatch(harness, options.accountBatch, seen, options.seed ?? 7));
  }
  await db
    .update(batches)
    .set({
      totalCalls: sql`(SELECT count(*)::int FROM ${callRecords} WHERE ${callRecords.batchId} = ${batches.id})`,
    })
    .where(eq(batches.organizationId, harness.admin.organizationId));
  return { harness, batches: rows };
}

/** The account-paced batch: New York hours, its own numbers, all its contacts due at once. */
async function seedAccountBatch(
  harness: DialerHarness,
  options: NonNullable<SchedulerSimulationOptions['accountBatch']>,
  seen: Set<string>,
  seed: number,
): Promise<BatchRow> {
  const numbers: string[] = [];
  for (let i = 0; i < options.numbers; i += 1) {
    numbers.push((await harness.accountNumber(options.callsPerSecond)).id);
  }
  const batch = await harness.calling.batch(harness.admin.organizationId, harness.admin.userId, {
    timezone: 'America/New_York',
    callingHourStart: '09:00',
    callingHourEnd: '20:00',
    allowedDays: [0, 1, 2, 3, 4, 5, 6],
    enforceCalleeLocalHours: true,
    retry: 1,
    delay: 600,
    callingNumbers: numbers,
    maxConcurrentCalls: 400,
  });
  const random = seededRandom(seed + 2);
  const contacts: string[] = [];
  while (contacts.length < options.contacts) {
    const number = `+1212${String(2_000_000 + Math.floor(random() * 7_000_000))}`;
    if (!seen.has(number) && seen.add(number)) contacts.push(number);
  }
  await harness.t.app
    .get(Database)
    .db.insert(callRecords)
    .values(
      contacts.map((phoneNumber) => ({
        organizationId: batch.organizationId,
        batchId: batch.id,
        phoneNumber,
        contact: { name: 'Sam' },
        nextAttemptAt: options.dueAt,
      })),
    );
  return batch;
}

export async function runSchedulerSimulation(
  t: TestApp,
  twilio: TwilioFake,
  options: SchedulerSimulationOptions,
): Promise<SchedulerSimulationRun> {
  const clock = new SimulatedClock(options.from);
  clock.install(t);
  const { harness, batches: rows } = await seedSimulation(t, twilio, options);
  const organizationId = harness.admin.organizationId;
  const random = seededRandom((options.seed ?? 7) + 1);
  const dnc = new SimulationDnc(t, harness, options, random);
  const phase = measureClaims(t);
  const scheduler = t.app.get(DialerScheduler);
  const db = t.app.get(Database).db;
  const ticks: TickMeasure[] = [];
  let breakerResumes = 0;
  const phases: Record<SimulationPhase, number> = {
    dnc: 0,
    tick: 0,
    live: 0,
    end: 0,
    resume: 0,
    nextDue: 0,
    analyze: 0,
  };
  const timed = async <T>(name: SimulationPhase, step: () => Promise<T>): Promise<T> => {
    const stepStarted = performance.now();
    try {
      return await step();
    } finally {
      phases[name] += performance.now() - stepStarted;
    }
  };
  const analyze = () =>
    db.execute(
      sql`VACUUM (ANALYZE) call_records, phone_logs, dnc_entries, batches, batch_status_counts`,
    );
  const started = performance.now();
  await timed('analyze', analyze);
  for (;;) {
    if (ticks.length > 0 && ticks.length % ANALYZE_EVERY_TICKS === 0) {
      await timed('analyze', analyze);
    }
    await timed('dnc', () => dnc.addDue(clock.current));
    Object.assign(phase, { ms: 0, held: 0, blocked: 0 });
    const tickStarted = performance.now();
    const report = await timed('tick', () => scheduler.tick());
    ticks.push({
      at: clock.current,
      claimMs: phase.ms,
      decided: report.claimed + phase.held + phase.blocked,
      claimed: report.claimed,
      placed: report.placed,
      tickMs: performance.now() - tickStarted,
    });
    const live = await timed('live', () =>
      db
        .select({ id: phoneLogs.id, batchId: phoneLogs.batchId })
        .from(phoneLogs)
        .where(
          and(eq(phoneLogs.organizationId, organizationId), inArray(phoneLogs.callStatus, LIVE)),
        )
        // A fixed order, so the seeded outcomes fall on the same attempts run after run.
        .orderBy(asc(phoneLogs.id)),
    );
    options.onTick?.(ticks[ticks.length - 1], live.length);
    if (live.length > 0) {
      clock.advance(CALL_SECONDS);
      await timed('end', () => endAll(t, live, random, clock.current));
    }
    breakerResumes += await timed('resume', () => resumeTripped(harness, organizationId));
    const next = await timed('nextDue', () => nextDue(t, organizationId, clock.current));
    if (next === 'done') break;
    const now = clock.current.getTime();
    const target =
      next === 'now'
        ? new Date(now + (live.length > 0 ? 0 : BUSY_STEP_SECONDS * 1000))
        : new Date(Math.max(next.getTime(), now + options.minStepSeconds * 1000));
    if (target >= options.horizon) break;
    if (target > clock.current) clock.set(target);
  }
  const accountBatch = options.accountBatch && rows[rows.length - 1];
  return {
    organizationId,
    batches: rows,
    ...(accountBatch
      ? {
          accountPaced: {
            batchId: accountBatch.id,
            callsPerSecond: options.accountBatch!.callsPerSecond,
          },
        }
      : {}),
    ticks,
    dncAddedAt: dnc.addedAt,
    dncWithRetryScheduled: dnc.withRetryScheduled,
    dncThroughRoute: dnc.throughRoute,
    breakerResumes,
    endedAt: clock.current,
    wallMs: performance.now() - started,
    phases,
  };
}
