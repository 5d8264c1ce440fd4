import { randomInt } from 'node:crypto';
import { EgressGuard } from './egress-guard';
import { type Driver, type FuzzTarget, startFuzzTarget } from './fuzz-target';
import { loadOperations } from './openapi-model';
import { coverageProblems, failureReport, isFailure, summaryLine } from './report';
import { runFuzz } from './runner';

// The fuzz gate (issue #18): every operation of openapi.json gets FUZZ_CASES hostile cases on
// both database drivers. CI uses the fixed seed; `npm run fuzz` picks a random one and prints it.
// Replay: FUZZ_SEED=<seed> [FUZZ_OPS=createUser,login] [FUZZ_DRIVERS=pglite] npm run fuzz
const FIXED_SEED = 18;
const seed =
  process.env.FUZZ_SEED === 'random'
    ? randomInt(2 ** 31)
    : Number.parseInt(process.env.FUZZ_SEED ?? String(FIXED_SEED), 10);
const casesPerOperation = Number.parseInt(process.env.FUZZ_CASES ?? '200', 10);
const drivers = (process.env.FUZZ_DRIVERS ?? 'postgres,pglite').split(',') as Driver[];
const only = process.env.FUZZ_OPS?.split(',').filter(Boolean);
const operations = loadOperations().filter((o) => !only || only.includes(o.id));

const BOOT_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 600_000;

/** The gate on one driver: one test file per driver, so jest can run the two side by side. */
export function describeFuzzGate(driver: Driver): void {
  if (!drivers.includes(driver)) {
    it.skip(`fuzz gate on ${driver} (not in FUZZ_DRIVERS)`, () => undefined);
    return;
  }
  process.stdout.write(
    `\nfuzz ${driver}: seed ${seed} (replay: FUZZ_SEED=${seed} FUZZ_DRIVERS=${driver} npm run fuzz), ` +
      `${casesPerOperation} cases x ${operations.length} operations\n`,
  );
  describe(`fuzz gate on ${driver}`, () => gate(driver));
}

function gate(driver: Driver): void {
  let guard: EgressGuard;
  let target: FuzzTarget;

  beforeAll(async () => {
    guard = new EgressGuard();
    target = await startFuzzTarget(driver);
  }, BOOT_TIMEOUT_MS);

  afterAll(async () => {
    await target?.close();
    guard.release();
  }, BOOT_TIMEOUT_MS);

  it(
    'no 5xx, no answer outside the envelope, no stack trace or SQL text, none over 5 s',
    async () => {
      expect(operations.length).toBeGreaterThan(0);
      const result = await runFuzz(target, operations, {
        seed,
        casesPerOperation,
        concurrency: 4,
        requestTimeoutMs: 30_000,
      });
      const blocked = [...guard.blocked].map(([host, n]) => `${host} x${n}`).join(', ');
      process.stdout.write(
        `${summaryLine(driver, result, operations.length)}\n` +
          (blocked ? `  egress guard refused: ${blocked}\n` : ''),
      );
      const problems = [
        ...coverageProblems(result),
        ...(result.families.some(isFailure) ? [failureReport(driver, result)] : []),
      ];
      if (problems.length > 0) {
        const error = new Error(`\n${problems.join('\n')}`);
        error.stack = error.message; // the report is the message; a stack adds nothing
        throw error;
      }
    },
    RUN_TIMEOUT_MS,
  );
}
