// npm run chaos [-- --calls N --faults 0.3]: one chaos run (issue #28) with a random seed, printed
// for replay (CHAOS_SEED=…); exits 1 on any broken invariant.
// npm run bench:chaos [-- --calls 100 --faults 0.2 --write]: the same size of run without faults
// and with them, side by side: calls ended correctly, the longest dead air, crashes, wrongful
// dials, CPU per call (docs/reliability.md, docs/benchmarks.md "Chaos").
import * as h from '../lib/harness';
import { type ChaosReport, runChaos } from '../../test/chaos/chaos-run';
import { SeededRandom } from '../../test/chaos/seeded-random';

const HEADING = '## Chaos: the call path under faults';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

function print(report: ChaosReport): void {
  const { violations, ...figures } = report;
  console.log(JSON.stringify(figures));
  for (const violation of violations) console.log(`  VIOLATION ${violation}`);
}

function table(reports: ChaosReport[]): string {
  const row = (report: ChaosReport) =>
    `| ${report.faultRate === 0 ? 'none' : `${Math.round(report.faultRate * 100)} %`} | ${report.calls} | ${report.faultedCalls} | ${report.attemptsEnded} of ${report.attempts} | ${report.recordsClosed} of ${report.calls} | ${report.streams} | ${report.deadAirP50Ms} / ${report.deadAirP100Ms} ms | ${report.serverExited ? 'yes' : 'no'} | ${report.violations.length} | ${report.cpuSecondsPerCall.toFixed(3)} s | ${report.wallSeconds.toFixed(0)} s |`;
  return [
    '| faults per dimension | calls | faulted calls | attempts ended | records closed | streams | dead air p50 / p100 | server exited | violations | server CPU per attempt | wall |',
    '| --- | ---: | ---: | --- | --- | ---: | --- | --- | ---: | ---: | ---: |',
    ...reports.map(row),
  ].join('\n');
}

async function main(): Promise<void> {
  h.installCleanup();
  const seed = Number(process.env.CHAOS_SEED ?? SeededRandom.seed());
  const bench = process.argv.includes('--bench');
  const calls = option('calls', bench ? 100 : 30);
  const faultRate = option('faults', bench ? 0.2 : 0.3);
  console.log(
    `chaos: seed ${seed} (replay: CHAOS_SEED=${seed} npm run ${bench ? 'bench:chaos' : 'chaos'} -- --calls ${calls} --faults ${faultRate})`,
  );
  const reports: ChaosReport[] = [];
  if (bench) {
    reports.push(await runChaos({ seed, calls, faultRate: 0 }));
    print(reports[0]);
  }
  reports.push(await runChaos({ seed, calls, faultRate }));
  print(reports.at(-1)!);
  if (bench) {
    const text = table(reports);
    console.log(`\n${text}`);
    if (process.argv.includes('--write')) {
      const m = await h.machine();
      await h.writeSection(
        HEADING,
        m,
        [
          HEADING,
          '',
          `Measured ${m.date} on ${h.describeMachine(m)} with \`npm run build && npm run bench:chaos -- --calls ${calls} --faults ${faultRate} --write\`, seed ${seed}: the built server on PostgreSQL beside the three telephony fakes, the chat and speech fakes; the same calls without faults, then with each dimension (answer, caller, model, provider requests and callbacks) faulted at the given rate, with a share of the speech service's and the model's requests failing, hanging, cut or slow, a number put on the DNC list and a batch cancelled mid-run (synthesis falls back to the offline engine). Dead air: the longest stretch a callee heard neither the agent nor themselves (bound 10 s). Violations: the invariants of \`test/chaos/chaos-run.ts\`.`,
          '',
          text,
        ].join('\n'),
      );
    }
  }
  process.exitCode = reports.every((report) => report.violations.length === 0) ? 0 : 1;
}

main().catch(async (error: unknown) => {
  console.error(error);
  await h.cleanup();
  process.exit(1);
});
