// The compliance simulation through the real scheduler at full scale (issue #12): contacts in a
// fresh PostgreSQL database, DialerScheduler.tick() on an injected clock across the US
// fall-back, calls placed on the Twilio fake and ended through the dialer's ending path, DNC
// listings mid-run; the database judged by the independent oracle afterwards. CI runs the same
// code at 10,000 (test/integration/dialer-scheduler-simulation.test.ts).
//
//   npm run bench:dialer-scheduler -- [--contacts N] [--write] [--check | --compliance]
//
// --write: replace the "## Dialer scheduler simulation" section of docs/benchmarks.md;
// --check: exit 1 on any violation or when the mean scheduler time per decision exceeds 1 ms;
// --compliance: exit 1 on any violation (what CI runs at 10,000: a gate that timing cannot flake).
// Needs PostgreSQL at TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).
import os from 'node:os';
import { startDialerApp } from '../test/support/dialer-app';
import {
  runSchedulerSimulation,
  SIMULATION_DIALER_ENV,
  type SchedulerSimulationRun,
} from '../test/support/scheduler-simulation';
import {
  auditSchedulerSimulation,
  type SchedulerAudit,
} from '../test/support/scheduler-simulation-audit';
import * as harness from './lib/harness';

const HEADING = '## Dialer scheduler simulation';
const TARGET_MS = 1;
const DAY = 86_400_000;
const DST_CHANGE = new Date('2026-11-01T06:00:00Z');

function parseArgs(argv: string[]) {
  const options = {
    contacts: 100_000,
    write: false,
    check: false,
    compliance: false,
    synchronousCommit: true,
  };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--contacts') options.contacts = Number(argv[++i]);
    else if (argv[i] === '--synchronous-commit') options.synchronousCommit = argv[++i] !== 'off';
    else if (argv[i] === '--write') options.write = true;
    else if (argv[i] === '--check') options.check = true;
    else if (argv[i] === '--compliance') options.compliance = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!Number.isInteger(options.contacts) || options.contacts < 1) throw new Error('--contacts N');
  return options;
}

/** The share of contacts also in a second batch. */
const SHARED_NUMBERS = 0.1;
/** Contacts of the batch on one provider account at 1 call/s, due at 19:56 in New York. */
const accountBatch = (contacts: number) => ({
  contacts: Math.max(20, Math.round(contacts * 0.001)),
  numbers: 5,
  callsPerSecond: 1,
  dueAt: new Date('2026-10-31T23:56:00Z'),
});
const n = (value: number): string => value.toLocaleString('en-US');
const violations = (audit: SchedulerAudit): number =>
  audit.outsideWindow +
  audit.dncLeaks +
  audit.overBudget +
  audit.earlyRetries +
  audit.capExceeded +
  audit.overlapping +
  audit.overAccountRate +
  audit.ringsOutsideWindow +
  audit.notPlaced +
  audit.withoutPermit +
  audit.pendingWithoutReason +
  (audit.final.in_progress ?? 0);

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const app = await startDialerApp(SIMULATION_DIALER_ENV, {
    database: { synchronousCommit: options.synchronousCommit },
  });
  const { t, twilio } = app;
  let audit: SchedulerAudit;
  let phases: SchedulerSimulationRun['phases'];
  try {
    const run = await runSchedulerSimulation(t, twilio, {
      contacts: options.contacts,
      from: new Date('2026-10-31T00:00:00Z'),
      spreadMs: 2 * DAY,
      horizon: new Date('2026-11-04T00:00:00Z'),
      dncAdds: Math.max(300, Math.round(options.contacts * 0.005)),
      callingNumbers: 20,
      sharedNumbers: SHARED_NUMBERS,
      accountBatch: accountBatch(options.contacts),
      minStepSeconds: 1800,
      onTick: (tick, live) => {
        if (process.env.BENCH_PROGRESS) console.error(JSON.stringify({ ...tick, live }));
      },
    });
    audit = await auditSchedulerSimulation(t, run, DST_CHANGE);
    phases = run.phases;
  } finally {
    await app.close();
  }
  const m = await harness.machine();
  const load = os.loadavg()[0];
  const { completed = 0, failed = 0, do_not_call = 0, pending = 0 } = audit.final;
  const pass = audit.perDecisionMeanMs <= TARGET_MS ? 'pass' : '**fail**';
  const text = [
    HEADING,
    '',
    `Measured ${m.date} on ${harness.describeMachine(m)} with \`npm run bench:dialer-scheduler -- --contacts ${options.contacts} --write\` (1-minute load average after: ${load.toFixed(2)}).`,
    '',
    `The real scheduler (\`test/support/scheduler-simulation.ts\`, the code CI runs at 10,000): ${n(audit.contacts)} contacts (the population of the calling-window simulation: every US area code, some abroad, 5 % with a contact timezone) in 9 batches (office hours, whole days, windows crossing midnight, weekdays only, opted out; retry 0–4, delay 0–2 h) on PostgreSQL, first due between 2026-10-31 and 11-02. \`DialerScheduler.tick()\` on an injected clock (DIALER_MAX_CONCURRENT_CALLS=2000, 400 per batch, 20 numbers at 1000 calls/s), placing on the Twilio fake; each placed call ends 90 s later through AttemptEndings with a seeded outcome (35 % completed, busy, no-answer, voicemail, 6 % failed); the clock then jumps to the next due record (at least 30 min when nothing is due) until nothing is pending or 2026-11-04. ${n(audit.dncListed)} numbers listed mid-run (${n(audit.dncWithRetryScheduled)} with a retry scheduled, ${n(audit.dncThroughRoute)} through POST /api/dnc/add). ${(SHARED_NUMBERS * 100).toFixed(0)} % of the contacts are also in a second batch (${n(audit.sharedNumbers)} numbers, ${n(audit.callsToSharedNumbers)} calls to them): caps and one live call are per number. A tenth batch (${n(accountBatch(options.contacts).contacts)} New York contacts, all due at 19:56 there, four minutes before its window closes) dials through 5 numbers of one provider account at 1 call/s, which the provider is taken to queue: each of its calls rings at the later of its placement and a second after the one before, and that ring time is judged. Then every phone log is judged from the database by the independent oracle.`,
    '',
    '| contacts | calls placed | within 12 h of the US change | outside a window | after DNC | over budget | retry before delay | FL/OK/MD cap exceeded (per number) | two calls to one number at once | account batch calls | over the account calls/s | rings outside a window once queued | completed | failed | never callable | do_not_call | pending past horizon |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${n(audit.contacts)} | ${n(audit.callsPlaced)} | ${n(audit.callsNearDstChange)} | ${audit.outsideWindow} | ${audit.dncLeaks} | ${audit.overBudget} | ${audit.earlyRetries} | ${audit.capExceeded} | ${audit.overlapping} | ${n(audit.accountCalls)} | ${audit.overAccountRate} | ${audit.ringsOutsideWindow} | ${n(completed)} | ${n(failed)} | ${n(audit.neverCallable)} | ${n(do_not_call)} | ${n(pending)} |`,
    '',
    'Scheduler time per decision: wall time of the claim phase (every `DialerClaims.claimBatch` of a tick: locks, due records, DNC, window, phone-log writes) divided by the records it decided (claimed + held for later + withdrawn as DNC); placed calls per second of tick wall time (claims, placement on the fake and its writes).',
    '',
    '| ticks | decisions | per decision mean ms | per decision p99 (over ticks) ms | target mean ≤ 1 ms | calls placed per s | simulated days | wall s |',
    '|---:|---:|---:|---:|---|---:|---:|---:|',
    `| ${n(audit.ticks)} | ${n(audit.decided)} | ${audit.perDecisionMeanMs.toFixed(3)} | ${audit.perDecisionP99Ms.toFixed(3)} | ${pass} | ${audit.placedPerSecond.toFixed(0)} | ${audit.simulatedDays.toFixed(1)} | ${audit.wallSeconds.toFixed(0)} |`,
    '',
  ].join('\n');
  console.log(text);
  console.error(
    `where the wall time went (s): ${Object.entries(phases)
      .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)}`)
      .join(', ')}`,
  );
  if (audit.examples.length) console.log(audit.examples.join('\n'));
  if (options.write) await harness.writeSection(HEADING, m, text);
  const slow = options.check && audit.perDecisionMeanMs > TARGET_MS;
  if ((options.check || options.compliance) && (violations(audit) > 0 || slow)) {
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
