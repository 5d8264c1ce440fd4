// Outbound frame pacing of the call session's per-session timer (FramePacer): how late each
// 20 ms frame leaves against its absolute target, and the spacing between frames, with N calls
// speaking at once in this process.
//
//   npm run bench:voice-pacing -- [--calls 1,50,100,200] [--seconds 5] [--write]
//
// --write: replace the "## Voice: outbound frame pacing" section of docs/benchmarks.md. Target
// (issue #14): spacing jitter p99 ≤ 5 ms. Pure timers: needs no database or Redis.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { FRAME_MS } from '../src/modules/voice/media/media-stream';
import { FramePacer } from '../src/modules/voice/session/frame-pacer';

interface Harness {
  writeSection(heading: string, machine: unknown, text: string): Promise<void>;
  machine(): Promise<{ date: string }>;
  describeMachine(machine: unknown): string;
  percentiles(values: number[]): { p50: number; p99: number; max: number };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const harness = require('./lib/harness') as Harness;

const TARGET_JITTER_P99_MS = 5;
const HEADING = '## Voice: outbound frame pacing';

function parseArgs(argv: string[]) {
  const options = { calls: [1, 50, 100, 200], seconds: 5, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--calls') options.calls = argv[++i].split(',').map(Number);
    else if (argv[i] === '--seconds') options.seconds = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return options;
}

/** `calls` pacers each sending `seconds` of frames, all queued at once (a whole greeting). */
async function run(calls: number, seconds: number) {
  const frames = Math.round((seconds * 1000) / FRAME_MS);
  const lateness: number[] = [];
  const jitter: number[] = [];
  await Promise.all(
    Array.from({ length: calls }, async () => {
      let previous: number | undefined;
      let start = 0;
      let sent = 0;
      const pacer = new FramePacer(() => {
        const now = performance.now();
        lateness.push(now - (start + sent * FRAME_MS));
        if (previous !== undefined) jitter.push(Math.abs(now - previous - FRAME_MS));
        previous = now;
        sent += 1;
      }, FRAME_MS);
      start = performance.now();
      for (let i = 0; i < frames; i++) pacer.push(Buffer.alloc(160));
      await pacer.drained();
    }),
  );
  return {
    calls,
    frames: lateness.length,
    lateness: harness.percentiles(lateness),
    jitter: harness.percentiles(jitter),
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const rows = [];
  for (const calls of options.calls) {
    const row = await run(calls, options.seconds);
    rows.push(row);
    console.log(
      `${calls} calls: lateness p50 ${row.lateness.p50.toFixed(2)} p99 ${row.lateness.p99.toFixed(2)} ms; jitter p99 ${row.jitter.p99.toFixed(2)} max ${row.jitter.max.toFixed(2)} ms`,
    );
  }
  const machine = await harness.machine();
  const ms = (value: number) => value.toFixed(2);
  const text = [
    HEADING,
    '',
    `Measured ${machine.date} on ${harness.describeMachine(machine)} with \`npm run bench:voice-pacing -- --calls ${options.calls.join(',')} --seconds ${options.seconds} --write\` (1-minute load average after: ${os.loadavg()[0].toFixed(2)}).`,
    '',
    `The call session's per-session timer (\`FramePacer\`: one \`setTimeout\` per frame aimed at start + n × 20 ms), N sessions in one process each sending ${options.seconds} s of frames queued at once, nothing else running in the process (no sockets, no synthesis): the pacing alone. Lateness: when a frame left against its absolute target; jitter: |gap between consecutive frames − 20 ms|. Target (issue #14): jitter p99 ≤ ${TARGET_JITTER_P99_MS} ms.`,
    '',
    '| calls | frames | lateness p50 ms | lateness p99 ms | lateness max ms | jitter p50 ms | jitter p99 ms | jitter max ms | jitter p99 ≤ 5 ms |',
    '| ----: | -----: | --------------: | --------------: | --------------: | ------------: | ------------: | ------------: | ----------------- |',
    ...rows.map(
      (row) =>
        `| ${row.calls} | ${row.frames.toLocaleString('en-US')} | ${ms(row.lateness.p50)} | ${ms(row.lateness.p99)} | ${ms(row.lateness.max)} | ${ms(row.jitter.p50)} | ${ms(row.jitter.p99)} | ${ms(row.jitter.max)} | ${row.jitter.p99 <= TARGET_JITTER_P99_MS ? 'pass' : 'fail'} |`,
    ),
    '',
  ].join('\n');
  if (options.write) await harness.writeSection(HEADING, machine, text);
  else console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
