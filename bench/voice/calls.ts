// Voice runtime on live calls (issue #14): turn latency, outbound pacing jitter at the receiving
// side, concurrency and memory per call, through the built server's real media-stream WebSocket.
//
//   npm run build && npm run bench:voice -- calls [--steps 1,10,25,50,100,150,200] [--turns 6]
//                                               [--repeat 2] [--write]
//
// The speech services (OpenAI-compatible STT and TTS) and the chat model are local fakes that
// answer at once, so what is measured is the runtime's own time: from the caller's last voiced
// frame handed to the socket to the first agent frame received, minus the end-of-turn silence
// the turn tracker waits for. Each step holds N calls at once in one server process; every
// caller sends a frame every 20 ms for the whole call and speaks `--turns` utterances. Between
// steps all calls are hung up. Memory per call: the server's heap and RSS after full GCs with
// the step's calls live (all turns spoken, still streaming) minus the same after they hung up.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import { DEFAULT_TURN_OPTIONS } from '../../src/modules/voice/audio/turn-tracker';
import { seededRandom } from '../../test/support/compliance-simulation';
import { reportHarness as harness } from '../lib/report-harness';
import {
  type LiveCall,
  schedTimes,
  type SchedTimes,
  type ServerLoad,
  type ServerMemory,
  VoiceRig,
} from './live-rig';
import { pacingJitters, ScriptedCaller, voicedFrames } from './scripted-caller';
import { percentile } from '../../src/common/percentile';

const HEADING = '## Voice runtime: live calls';
const END_OF_TURN_MS = DEFAULT_TURN_OPTIONS.endOfTurnSilenceMs;
const LATENCY_TARGET_P95_MS = 50;
const JITTER_TARGET_P99_MS = 5;
const UTTERANCE = 'opening-hours.ulaw';
/** The step whose turn-latency p95 is the baseline "doubled" is measured against. */
const BASELINE_CALLS = 10;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const h = require('../lib/harness') as {
  run(main: () => Promise<void>): void;
  percentiles(values: number[]): { p50: number; p99: number; max: number };
};

interface Options {
  steps: number[];
  turns: number;
  repeat: number;
  write: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    steps: [1, 10, 25, 50, 100, 150, 200],
    turns: 6,
    repeat: 1,
    write: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--steps') options.steps = argv[++i].split(',').map(Number);
    else if (argv[i] === '--turns') options.turns = Number(argv[++i]);
    else if (argv[i] === '--repeat') options.repeat = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (options.steps.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--steps 1,10');
  if (!(options.turns >= 1) || !(options.repeat >= 1)) throw new Error('--turns, --repeat ≥ 1');
  return options;
}

export { percentile };

/** One turn of a one-call step, split at the requests the fakes saw (each stamps its arrival). */
export interface Stages {
  /** Last voiced frame → chat request, beyond the end-of-turn silence: end of turn + STT. */
  toChat: number;
  /** Chat request → first agent frame: the reply read, its first sentence synthesized and sent. */
  afterChat: number;
  /** With the speech fake: last voiced frame → transcription request, beyond the silence. */
  endOfTurn?: number;
  /** Transcription request → chat request (STT answer, turn stored, prompt built). */
  sttToChat?: number;
  /** Chat request → first synthesis request (stream read, first sentence complete). */
  chatToTts?: number;
  /** First synthesis request → first agent frame (synthesis, μ-law, pacer, socket). */
  ttsToFrame?: number;
}

export interface StepResult {
  calls: number;
  /** Calls placed but not connected (the answer callback failed): counted as misses. */
  unconnected: number;
  repeat: number;
  load1: number;
  latencies: number[];
  missed: number;
  jitters: number[];
  /** How late the bench's own 20 ms send ticks were: the load generator's share of the box. */
  senderLagP99: number;
  benchLoopDelayP99: number;
  server: ServerLoad;
  /** Per added live call: (with calls − after hang-up) / calls. */
  heapPerCall: number;
  rssPerCall: number;
  heapWith: number;
  rssWith: number;
  stages: Stages[];
  seconds: number;
  /** ms per second the server's / the bench's threads waited runnable for a CPU (all threads). */
  serverWaitMsPerS: number;
  benchWaitMsPerS: number;
  /** CPU the bench process itself used over the step (callers and fakes, all threads), % of one core. */
  benchCpuPercent: number;
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Per turn: when each fake saw its request, between voice end and reply. A chat request is the
 * call's when its prompt quotes the call's contact; speech requests carry nothing of the call,
 * so their stages are only split out when one call is live (`alone`).
 */
function stagesOf(rig: VoiceRig, caller: ScriptedCaller, contactName: string, alone: boolean) {
  const stages: Stages[] = [];
  const mine = rig.chat.requests.filter(
    (r) => r.body.stream === true && JSON.stringify(r.body.messages).includes(contactName),
  );
  for (const turn of caller.turns) {
    const reply = turn.firstReplyAt;
    if (reply === undefined) continue;
    const within = (at: number) => at >= turn.lastVoicedAt && at <= reply;
    const chat = mine.find((r) => within(r.receivedAt));
    if (chat === undefined) continue;
    const stage: Stages = {
      toChat: chat.receivedAt - turn.lastVoicedAt - END_OF_TURN_MS,
      afterChat: reply - chat.receivedAt,
    };
    const stt = rig.speech?.transcriptions.find((r) => within(r.receivedAt))?.receivedAt;
    const tts = rig.speech?.speeches.find((r) => within(r.receivedAt))?.receivedAt;
    if (alone && stt !== undefined && tts !== undefined) {
      stage.endOfTurn = stt - turn.lastVoicedAt - END_OF_TURN_MS;
      stage.sttToChat = chat.receivedAt - stt;
      stage.chatToTts = tts - chat.receivedAt;
      stage.ttsToFrame = reply - tts;
    }
    stages.push(stage);
  }
  return stages;
}

export async function runStep(
  rig: VoiceRig,
  calls: number,
  turns: number,
  repeat: number,
  replyTimeoutMs = 10_000,
): Promise<StepResult> {
  const load1 = os.loadavg()[0];
  // The same pauses on every run of a step.
  const random = seededRandom(calls * 1_000 + repeat);
  const utterance = voicedFrames(UTTERANCE);
  const live: LiveCall[] = [];
  const callers: ScriptedCaller[] = [];
  const names: string[] = [];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const memoryBefore = await rig.memory();
  await rig.load();
  loop.enable();
  const started = performance.now();
  const serverSched = schedTimes(rig.pid ?? 0);
  const benchSched = schedTimes(process.pid);
  const unconnected = await rig.placeCalls(calls, (call) => {
    live.push(call);
    names.push(call.contactName);
    const caller = new ScriptedCaller(call.caller, {
      utterance,
      turns,
      // 0.3–1.5 s of silence before each utterance: calls drift apart rather than march in step.
      pauseFrames: [15, 75],
      random,
      replyTimeoutMs,
    });
    callers.push(caller);
    caller.start();
  });
  await until(
    () => callers.every((caller) => caller.finished),
    turns * 2 * (replyTimeoutMs + 2_000) + 30_000,
    `${calls} calls to speak ${turns} turns`,
  ).catch((error: unknown) => {
    // Their 20 ms timers would keep the bench alive after it reports the failure.
    for (const caller of callers) caller.stop();
    throw error;
  });
  const seconds = (performance.now() - started) / 1_000;
  const waitedPerSecond = (before: SchedTimes, after: SchedTimes) =>
    (after.waitedMs - before.waitedMs) / seconds;
  const serverWaitMsPerS = waitedPerSecond(serverSched, schedTimes(rig.pid ?? 0));
  const benchSchedAfter = schedTimes(process.pid);
  const benchWaitMsPerS = waitedPerSecond(benchSched, benchSchedAfter);
  const benchCpuPercent = (benchSchedAfter.ranMs - benchSched.ranMs) / seconds / 10;
  loop.disable();
  const server = await rig.load();
  const memoryWith = await rig.memory();
  for (const caller of callers) caller.stop();
  await rig.hangUp(live);
  // The sessions end when their sockets close; give the server a moment to drop them.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const memoryAfter = await rig.memory();
  const stages = callers.flatMap((caller, i) => stagesOf(rig, caller, names[i], calls === 1));
  rig.clearRecords();

  const turnsTaken = callers.flatMap((caller) => caller.turns);
  const latencies = turnsTaken.flatMap((turn) =>
    turn.firstReplyAt === undefined ? [] : [turn.firstReplyAt - turn.lastVoicedAt - END_OF_TURN_MS],
  );
  const perCall = (key: keyof ServerMemory) =>
    (memoryWith[key] - Math.min(memoryAfter[key], memoryBefore[key])) / Math.max(1, live.length);
  return {
    calls,
    unconnected,
    repeat,
    load1,
    latencies,
    missed: turnsTaken.length - latencies.length,
    jitters: callers.flatMap(pacingJitters),
    senderLagP99: percentile(
      callers.flatMap((caller) => caller.sendLagMs),
      0.99,
    ),
    benchLoopDelayP99: loop.percentile(99) / 1e6,
    server,
    heapPerCall: perCall('heapUsed'),
    rssPerCall: perCall('rss'),
    heapWith: memoryWith.heapUsed,
    rssWith: memoryWith.rss,
    stages,
    seconds,
    serverWaitMsPerS,
    benchWaitMsPerS,
    benchCpuPercent,
  };
}

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const mib = (bytes: number, digits = 2) => fmt(bytes / 2 ** 20, digits);

/** A percentile of the two halves of a turn: up to the chat request, and after it. */
function splitAt(step: StepResult, q = 0.5): string {
  const at = (key: 'toChat' | 'afterChat') =>
    fmt(
      percentile(
        step.stages.map((stage) => stage[key]),
        q,
      ),
    );
  return `${at('toChat')} / ${at('afterChat')}`;
}

export function describeStep(step: StepResult): string {
  return (
    `${step.calls} call(s), run ${step.repeat}: turn p50 ${fmt(percentile(step.latencies, 0.5))} ms, ` +
    `p95 ${fmt(percentile(step.latencies, 0.95))} ms (${step.latencies.length} turns, ${step.missed} missed, ${step.unconnected} calls not connected); ` +
    `split p50 ${splitAt(step)} ms, p95 ${splitAt(step, 0.95)} ms; ` +
    `jitter p99 ${fmt(percentile(step.jitters, 0.99), 2)} ms (as sent ${fmt(step.server.sendJitterP99Ms, 2)} ms); server CPU ${fmt(step.server.cpuPercent, 0)} %, bench CPU ${fmt(step.benchCpuPercent, 0)} %, ` +
    `loop delay p99 ${fmt(step.server.loopDelayP99Ms)} ms, GC p99 ${fmt(step.server.gcP99Ms)} ms (max ${fmt(step.server.gcMaxMs)}, ${fmt(step.server.gcTotalMs / step.seconds)} ms/s, ${fmt(step.server.fullGcs / step.seconds, 2)} full GCs/s); bench loop delay p99 ${fmt(step.benchLoopDelayP99)} ms; waited ${fmt(step.serverWaitMsPerS, 0)} / ${fmt(step.benchWaitMsPerS, 0)} ms/s; sender lag p99 ${fmt(step.senderLagP99)} ms; ${mib(step.heapPerCall, 3)} MiB heap / call; load ${fmt(step.load1, 2)}`
  );
}

function stepRow(step: StepResult): string {
  const p = (q: number) => fmt(percentile(step.latencies, q));
  const j = (q: number) => fmt(percentile(step.jitters, q), 2);
  return (
    `| ${step.calls} | ${step.repeat} | ${fmt(step.load1, 2)} | ${step.unconnected} | ${step.latencies.length} | ${step.missed} | ${p(0.5)} | ${p(0.95)} | ${p(1)} | ` +
    `${splitAt(step)} | ` +
    `${j(0.5)} | ${j(0.99)} | ${fmt(step.server.sendJitterP99Ms, 2)} | ${fmt(step.server.cpuPercent, 0)} % | ${fmt(step.benchCpuPercent, 0)} % | ${fmt(step.server.loopDelayP99Ms)} | ${fmt(step.server.fullGcs / step.seconds, 2)} | ${fmt(step.serverWaitMsPerS, 0)} / ${fmt(step.benchWaitMsPerS, 0)} | ${fmt(step.senderLagP99)} | ` +
    `${mib(step.heapPerCall, 3)} | ${mib(step.rssPerCall, 3)} |`
  );
}

/** Largest step whose p95 stays within twice the baseline step's, in every run of it. */
function heldCalls(steps: StepResult[], baselineP95: number): number | undefined {
  const byCalls = new Map<number, StepResult[]>();
  for (const step of steps) byCalls.set(step.calls, [...(byCalls.get(step.calls) ?? []), step]);
  let held: number | undefined;
  for (const calls of [...byCalls.keys()].sort((a, b) => a - b)) {
    const runs = byCalls.get(calls)!;
    const ok = runs.every(
      (step) =>
        step.missed === 0 &&
        step.unconnected === 0 &&
        percentile(step.latencies, 0.95) <= 2 * baselineP95,
    );
    if (!ok) break;
    held = calls;
  }
  return held;
}

/** Least-squares slope of y on x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}

function report(options: Options, steps: StepResult[], machine: string, date: string): string {
  const baselineRuns = steps.filter((step) => step.calls === BASELINE_CALLS);
  const baselineP95 = percentile(
    baselineRuns.flatMap((step) => step.latencies),
    0.95,
  );
  const held = heldCalls(steps, baselineP95);
  const single = steps.filter((step) => step.calls === 1);
  const stages = single.flatMap((step) => step.stages);
  const stageRow = (name: string, key: keyof Stages) => {
    const values = stages.flatMap((stage) => (stage[key] === undefined ? [] : [stage[key]]));
    return `| ${name} | ${fmt(percentile(values, 0.5))} | ${fmt(percentile(values, 0.95))} |`;
  };
  const lowLoad = steps.filter((step) => step.calls <= BASELINE_CALLS);
  const lowLatencies = lowLoad.flatMap((step) => step.latencies);
  const lowJitters = lowLoad.flatMap((step) => step.jitters);
  const big = steps.filter((step) => step.calls >= 25);
  const heapSlope = slope(
    big.map((step) => step.calls),
    big.map((step) => step.heapWith),
  );
  const rssSlope = slope(
    big.map((step) => step.calls),
    big.map((step) => step.rssWith),
  );
  const command = `npm run bench:voice -- calls --steps ${options.steps.join(',')} --turns ${options.turns} --repeat ${options.repeat} --write`;
  return [
    HEADING,
    '',
    `Measured ${date} on ${machine} with \`npm run build && ${command}\`; the 1-minute load average at the start of each step is in the table (other helpers' work shared the 2 cores).`,
    '',
    `Real calls through the built server (\`dist/bundle/main.js\`, PostgreSQL, in-process queue): a batch created through the API, each call placed by the dialer at the Twilio fake, answered there (the fake fetches the answer TwiML) and connected to the \`<Stream>\` it names, the bench playing the provider: a 20 ms μ-law frame every 20 ms for the whole call, \`${UTTERANCE}\` (trimmed to its voiced frames) after a 0.3–1.5 s pause, ${options.turns} turns per call (at least 20 in the 1-call step, so its percentiles have samples). STT and TTS are the OpenAI-compatible speech fake, the model the chat fake (a two-sentence reply), all in the bench process and answering at once; Silero VAD, the turn tracker, the session, the pacer and the gateway are the real ones.`,
    '',
    `- **Turn latency** = first agent frame received − last voiced caller frame sent − the ${END_OF_TURN_MS} ms end-of-turn silence (\`DEFAULT_TURN_OPTIONS.endOfTurnSilenceMs\`). Target p95 ≤ ${LATENCY_TARGET_P95_MS} ms.`,
    '- **p50 split**: "to chat" = last voiced frame → that call\'s chat request reaching the fake, beyond the silence (end of turn, STT, prompt); "after chat" = chat request → first agent frame (reply read, TTS, pacer, socket). The chat request is matched to its call by the contact name its prompt quotes.',
    `- **Jitter** = |arrival interval − 20 ms| between consecutive agent frames of one greeting or reply, at the bench's socket. Target p99 ≤ ${JITTER_TARGET_P99_MS} ms. **As sent**: the same over the server's own writes of media messages to each socket (stretches split at gaps over 250 ms), so the server's share and the bench's (its loop stamping arrivals late) can be told apart.`,
    "- **Sender lag p99**: how late the bench's own 20 ms send ticks were (it shares the cores): what the bench adds to both figures.",
    '- **Server CPU, loop delay p99, full GCs / s**: the server process over the step (probe in `bench/voice/server-probe.js`); a full GC marks the whole heap, with a final pause that holds every call. **Bench CPU**: the bench process over the step (its callers and the fakes; `/proc/<pid>/task/*/schedstat`), CPU taken from the same cores.',
    "- **Waited for a CPU**: ms per second of the step that the server's and the bench's threads spent runnable but not running (`/proc/<pid>/task/*/schedstat`): the box's other load showing up inside both processes. Near 0 on a quiet box.",
    "- **Memory per call**: heap used and RSS after two full GCs with the step's calls live (turns done, still streaming), minus the same before the step or after hang-up, whichever is lower, divided by the calls.",
    '',
    '| calls | run | load | not connected | turns | missed | turn p50 ms | turn p95 ms | turn max ms | p50 split: to chat / after chat, ms | jitter p50 ms | jitter p99 ms | jitter p99 as sent, ms | server CPU | bench CPU | server loop delay p99 ms | full GCs / s | waited for a CPU, ms/s: server / bench | sender lag p99 ms | heap MiB / call | RSS MiB / call |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...steps.map(stepRow),
    '',
    stages.length > 0
      ? [
          `Where the time goes in the 1-call steps (${stages.length} turns; each fake stamps when a request reached it, in the bench's clock):`,
          '',
          '| stage | p50 ms | p95 ms |',
          '| --- | ---: | ---: |',
          stageRow(
            `last voiced frame → transcription request, beyond the ${END_OF_TURN_MS} ms silence (VAD windows, turn tracker)`,
            'endOfTurn',
          ),
          stageRow(
            'transcription request → chat request (STT answer, turn stored, prompt built)',
            'sttToChat',
          ),
          stageRow(
            'chat request → first synthesis request (stream read, first sentence)',
            'chatToTts',
          ),
          stageRow(
            'synthesis request → first agent frame (synthesis, 24→8 kHz, μ-law, pacer, socket)',
            'ttsToFrame',
          ),
          '',
        ].join('\n')
      : '',
    `**Read.** Up to ${BASELINE_CALLS} calls: turn latency p95 ${fmt(percentile(lowLatencies, 0.95))} ms (target ≤ ${LATENCY_TARGET_P95_MS} ms: ${percentile(lowLatencies, 0.95) <= LATENCY_TARGET_P95_MS ? 'met' : 'missed'}), jitter p99 ${fmt(percentile(lowJitters, 0.99), 2)} ms (target ≤ ${JITTER_TARGET_P99_MS} ms: ${percentile(lowJitters, 0.99) <= JITTER_TARGET_P99_MS ? 'met' : 'missed'}). ` +
      `Baseline p95 at ${BASELINE_CALLS} calls: ${fmt(baselineP95)} ms; the largest step whose p95 stayed within twice that (${fmt(2 * baselineP95)} ms) in every run, with no missed turn: ${held === undefined ? 'none' : `${held} calls`} (target ≥ 100). ` +
      `Memory: ${mib(heapSlope, 3)} MiB heap and ${mib(rssSlope, 3)} MiB RSS per added live call (slope over the steps of ≥ 25 calls).`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const rig = await VoiceRig.start('fake');
  const steps: StepResult[] = [];
  try {
    // Warm-up (JIT, connection pools, the VAD session): not reported.
    console.log('warm-up: 5 calls, 2 turns');
    await runStep(rig, 5, 2, 0);
    for (let repeat = 1; repeat <= options.repeat; repeat++) {
      for (const calls of options.steps) {
        const step = await runStep(
          rig,
          calls,
          calls === 1 ? Math.max(options.turns, 20) : options.turns,
          repeat,
        );
        steps.push(step);
        console.log(describeStep(step));
      }
    }
  } catch (error) {
    console.error(rig.serverOutput().slice(-4_000));
    throw error;
  } finally {
    await rig.stop();
  }
  const machine = await harness.machine();
  const text = report(options, steps, harness.describeMachine(machine), machine.date);
  console.log(text);
  if (options.write) await harness.writeSection(HEADING, machine, text);
}

if (require.main === module) h.run(main);
