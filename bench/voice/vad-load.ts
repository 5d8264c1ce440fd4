// Voice runtime: what the shared Silero VAD costs per call (issue #14), alone in one process.
//
//   npm run bench:voice -- vad [--calls 10,50,100] [--seconds 15] [--groups 50]
//
// N calls each push a 20 ms μ-law frame of real speech every 20 ms into one VoiceActivityDetector
// (the model in its worker thread, as the server runs it). A live server reads each call's frame
// from its own socket, so frames come spread over the 20 ms: here in `--groups` groups, each at
// its own offset (1 group = all calls at once, the kindest case for batching). Reported per step:
// the process's CPU (main thread + the model's worker + V8's helpers), the main thread's own
// (Linux schedstat), windows per model run, and windows dropped because the detector fell behind.
// Prints only; `--write` is accepted (for `bench:voice all --write`) and writes nothing.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { VoiceActivityDetector } from '../../src/modules/voice/audio/voice-activity-detector';
import { FRAME_BYTES, FRAME_MS } from '../../src/modules/voice/media/media-stream';

const SPEECH = readFileSync(path.join(__dirname, '../../test/fixtures/audio/caller-speech.ulaw'));

function parseArgs(argv: string[]) {
  const options = { calls: [10, 50, 100], seconds: 15, groups: 50 };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--calls') options.calls = argv[++i].split(',').map(Number);
    else if (argv[i] === '--seconds') options.seconds = Number(argv[++i]);
    else if (argv[i] === '--groups') options.groups = Number(argv[++i]);
    else if (argv[i] !== '--write') throw new Error(`unknown option ${argv[i]}`);
  }
  if (options.calls.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--calls 10,100');
  if (!(options.seconds > 0) || !(options.groups >= 1)) throw new Error('--seconds, --groups ≥ 1');
  return options;
}

/** CPU time (ms) this process's main thread has run (Linux schedstat). */
function mainThreadCpuMs(): number {
  const line = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8');
  return Number(line.split(' ')[0]) / 1e6;
}

const until = (at: number) =>
  new Promise((resolve) => {
    const wait = at - performance.now();
    if (wait > 0) setTimeout(resolve, wait);
    else setImmediate(resolve);
  });

async function step(calls: number, seconds: number, groups: number) {
  const vad = new VoiceActivityDetector();
  await vad.readiness();
  const streams = Array.from({ length: calls }, () => vad.open(() => undefined));
  const perGroup = Math.ceil(calls / groups);
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadCpuMs();
  const started = performance.now();
  for (let frame = 0; performance.now() - started < seconds * 1_000; frame += 1) {
    const due = started + frame * FRAME_MS;
    for (let call = 0; call < calls; call += 1) {
      const at = (call * 997 + frame * FRAME_BYTES) % (SPEECH.length - FRAME_BYTES);
      streams[call].push(SPEECH.subarray(at, at + FRAME_BYTES));
      if ((call + 1) % perGroup === 0) await until(due + ((call + 1) / calls) * FRAME_MS);
    }
    await until(due + FRAME_MS);
  }
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const mainMs = mainThreadCpuMs() - mainBefore;
  for (const stream of streams) stream.close();
  await vad.settled();
  await vad.onModuleDestroy();
  const processMs = (cpu.user + cpu.system) / 1_000;
  const { batchRuns, windowsScored } = vad.stats;
  return {
    calls,
    processCpu: (processMs / elapsed) * 100,
    mainCpu: (mainMs / elapsed) * 100,
    windowsPerRun: windowsScored / batchRuns,
    dropped: streams.reduce((sum, stream) => sum + stream.dropped, 0),
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  console.log(
    `VAD alone, frames in ${options.groups} group(s) per 20 ms, ${options.seconds} s a step; load average ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log('| calls | process CPU | main thread CPU | windows per run | windows dropped |');
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  for (const calls of options.calls) {
    const r = await step(calls, options.seconds, options.groups);
    console.log(
      `| ${r.calls} | ${r.processCpu.toFixed(1)} % | ${r.mainCpu.toFixed(1)} % | ${r.windowsPerRun.toFixed(1)} | ${r.dropped} |`,
    );
  }
  console.log(`load average after: ${os.loadavg()[0].toFixed(2)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
