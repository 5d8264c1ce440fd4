// The voice benchmarks (issue #14), one command:
//
//   npm run bench:voice -- [all|pacing|calls|offline|vad|greeting] [options of that bench]
//
//   pacing   simulated calls in one process: pacer jitter and Silero VAD cost (pacing.ts)
//   calls    live calls through the built server: turn latency, jitter at the receiving side,
//            concurrency, memory per call (calls.ts; needs `npm run build` and PostgreSQL)
//   offline  the same turn latency with the offline engine for real (offline-turns.ts)
//   vad      the shared Silero VAD alone: CPU per call count, windows per model run (vad-load.ts)
//   greeting what waiting for the callee (firstSpeaker callee) adds to the greeting (greeting-wait.ts)
//   all      each in turn (the default), each with its defaults plus --write when given
//
// Each runs in its own process, so one bench's timers and memory never touch the next.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const BENCHES: Record<string, string> = {
  pacing: 'pacing.ts',
  calls: 'calls.ts',
  offline: 'offline-turns.ts',
  vad: 'vad-load.ts',
  greeting: 'greeting-wait.ts',
};

function runBench(name: string, args: string[]): number {
  console.log(`\n=== bench:voice ${name} ${args.join(' ')}`);
  const result = spawnSync(
    process.execPath,
    ['-r', '@swc-node/register', path.join(__dirname, BENCHES[name]), ...args],
    { stdio: 'inherit' },
  );
  return result.status ?? 1;
}

function main(): number {
  const [first, ...rest] = process.argv.slice(2);
  if (first && BENCHES[first]) return runBench(first, rest);
  if (first !== undefined && first !== 'all' && !first.startsWith('--')) {
    console.error(`unknown bench ${first}: one of all, ${Object.keys(BENCHES).join(', ')}`);
    return 2;
  }
  const args = first === 'all' ? rest : process.argv.slice(2);
  const write = args.includes('--write') ? ['--write'] : [];
  let status = 0;
  for (const name of Object.keys(BENCHES)) {
    const code = runBench(name, write);
    status ||= code;
  }
  return status;
}

process.exitCode = main();
