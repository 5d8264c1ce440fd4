// Calling-window rules: time per decision over ≥ 100,000 contacts (every US zone and some
// abroad), then the compliance simulation at full scale across the 2026 US/EU fall-back.
//
//   npm run bench:dialer -- [--contacts N] [--write] [--check] [--skip-simulation]
//
// --write: replace the "## Dialer calling windows" section of docs/benchmarks.md; --check: exit 1
// when p99 per decision exceeds 1 ms or the simulation finds an illegal call. Pure CPU: needs no
// database or Redis.
import os from 'node:os';
import { evaluateCallingWindow } from '../src/modules/dialer/calling-window';
import {
  makePopulation,
  simulateCompliance,
  SIMULATED_BATCHES,
  US_AREA_CODES,
  US_ZONES,
  windowsPlacer,
  type SimulationReport,
} from '../test/support/compliance-simulation';
import * as harness from './lib/harness';

const TARGET_P99_MS = 1;
const DAY = 86_400_000;

function parseArgs(argv: string[]) {
  const options = { contacts: 100_000, write: false, check: false, simulation: true };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--contacts') options.contacts = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else if (argv[i] === '--check') options.check = true;
    else if (argv[i] === '--skip-simulation') options.simulation = false;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!Number.isInteger(options.contacts) || options.contacts < 1) throw new Error('--contacts N');
  return options;
}

interface PassResult {
  times: number[];
  refusedTimes: number[];
  totalMs: number;
  allowed: number;
}

/** One decision per contact at its own instant (random over 2026), with 0–3 recent attempts. */
function decisionPass(contacts: ReturnType<typeof makePopulation>): PassResult {
  const times: number[] = [];
  const refusedTimes: number[] = [];
  let allowed = 0;
  const started = process.hrtime.bigint();
  for (const contact of contacts) {
    const now = new Date(contact.firstDueAt);
    const attempts = contact.id % 4;
    const recentAttempts = Array.from(
      { length: attempts },
      (_, i) => new Date(contact.firstDueAt - (i + 1) * 5 * 3_600_000),
    );
    const before = process.hrtime.bigint();
    const decision = evaluateCallingWindow(
      contact.batch,
      { phoneNumber: contact.phoneNumber, timezone: contact.timezone, recentAttempts },
      now,
    );
    const ms = Number(process.hrtime.bigint() - before) / 1e6;
    times.push(ms);
    if (decision.allowed) allowed += 1;
    else refusedTimes.push(ms);
  }
  return {
    times,
    refusedTimes,
    totalMs: Number(process.hrtime.bigint() - started) / 1e6,
    allowed,
  };
}

const fmt = (ms: number): string => (ms * 1000).toFixed(1);

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const from = Date.parse('2026-01-01T00:00:00Z');
  const contacts = makePopulation({ count: options.contacts, from, spreadMs: 365 * DAY, seed: 11 });
  const cold = decisionPass(contacts);
  const warm = decisionPass(contacts);
  const all = harness.percentiles(warm.times);
  const refused = harness.percentiles(warm.refusedTimes);
  const coldAll = harness.percentiles(cold.times);
  const perSecond = Math.round((warm.times.length / warm.totalMs) * 1000);

  let simulation: SimulationReport | undefined;
  if (options.simulation) {
    const simFrom = Date.parse('2026-10-23T00:00:00Z');
    const dstChangeAt = Date.parse('2026-11-01T06:00:00Z');
    const until = dstChangeAt + 3 * DAY;
    simulation = await simulateCompliance({
      contacts: makePopulation({
        count: options.contacts,
        from: simFrom,
        spreadMs: until - simFrom - 2 * DAY,
      }),
      until,
      placer: windowsPlacer,
      dstChangeAt,
    });
  }

  const m = await harness.machine();
  const load = os.loadavg()[0];
  const pass = all.p99 <= TARGET_P99_MS ? 'pass' : '**fail**';
  const lines = [
    '## Dialer calling windows',
    '',
    `Measured ${m.date} on ${harness.describeMachine(m)} with \`npm run bench:dialer -- --contacts ${options.contacts} --write\` (1-minute load average after: ${load.toFixed(2)}).`,
    '',
    `\`evaluateCallingWindow\` once per contact for ${options.contacts.toLocaleString('en-US')} contacts (80 % on US numbers cycling through all ${US_AREA_CODES.length} US area codes, i.e. all ${US_ZONES.length} zones the number data assigns to US numbers, the rest in the UK, Australia, Germany, India, Japan, Canada, Puerto Rico and toll-free; 5 % with a contact timezone, a fifth of those invalid), each at its own instant spread over 2026 with 0–3 attempts in the last 24 h, over ${SIMULATED_BATCHES.length} batch windows (office hours, whole days, windows crossing midnight, opted-out batches). A refused decision includes computing nextAllowedAt. Times per decision from \`process.hrtime\` around the call; the cold pass fills the per-zone offset caches.`,
    '',
    '| pass | decisions/s | p50 µs | p99 µs | max µs | refused: p50 µs | refused: p99 µs | allowed | target p99 ≤ 1 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    `| cold | ${Math.round((cold.times.length / cold.totalMs) * 1000).toLocaleString('en-US')} | ${fmt(coldAll.p50)} | ${fmt(coldAll.p99)} | ${fmt(coldAll.max)} | ${fmt(harness.percentiles(cold.refusedTimes).p50)} | ${fmt(harness.percentiles(cold.refusedTimes).p99)} | ${cold.allowed.toLocaleString('en-US')} | — |`,
    `| warm | ${perSecond.toLocaleString('en-US')} | ${fmt(all.p50)} | ${fmt(all.p99)} | ${fmt(all.max)} | ${fmt(refused.p50)} | ${fmt(refused.p99)} | ${warm.allowed.toLocaleString('en-US')} | ${pass} |`,
    '',
  ];
  if (simulation) {
    lines.push(
      `Compliance simulation (\`test/support/compliance-simulation.ts\`, the same harness CI runs at 10,000): ${simulation.contacts.toLocaleString('en-US')} contacts first due between 2026-10-23 and 2026-11-02, a simulated clock jumping from one due call to the next until 2026-11-04 06:00Z (crossing the EU change on 10-25 and the US change on 11-01), up to 6 calls per contact (30 % complete, else a retry 5–90 min later at the first allowed instant), every placed call judged by the independent oracle (\`test/support/compliance-oracle.ts\`, Intl brute force).`,
      '',
      '| decisions | calls placed | calls within 12 h of the US change | illegal calls | state caps exceeded | stuck retries | never callable | zones called | wall time s |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${simulation.decisions.toLocaleString('en-US')} | ${simulation.callsPlaced.toLocaleString('en-US')} | ${simulation.callsNearDstChange.toLocaleString('en-US')} | ${simulation.illegalCalls} | ${simulation.capExceeded} | ${simulation.stuck} | ${simulation.neverCallable} | ${simulation.callsByZone.size} | ${(simulation.elapsedMs / 1000).toFixed(1)} |`,
      '',
      'Wall time includes the oracle, which costs more per call than the rules (Intl formatting per zone).',
      '',
    );
  }
  const text = lines.join('\n');
  console.log(text);
  if (simulation && simulation.illegalExamples.length)
    console.log(simulation.illegalExamples.join('\n'));
  if (options.write) await harness.writeSection('## Dialer calling windows', m, text);
  if (
    options.check &&
    (all.p99 > TARGET_P99_MS ||
      (simulation && (simulation.illegalCalls > 0 || simulation.capExceeded > 0)))
  ) {
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
