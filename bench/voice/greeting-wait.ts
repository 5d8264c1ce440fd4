// Voice runtime: what waiting for the callee costs the greeting (issue #29, answer supervision).
// Live calls through the built server, one at a time, the bench playing the provider (a 20 ms
// frame every 20 ms from the stream's start), in three scenarios:
//
//   agent first     the agent greets as soon as the caller's track arrives (the baseline)
//   callee silent   firstSpeaker callee, a line that stays silent: the greeting after the cap
//   callee "Hello?" firstSpeaker callee, a person who says "Hello?" 0.3 s in: the greeting once
//                   they stop (test/fixtures/answers/human-1.ulaw, its voiced frames)
//
//   npm run build && npm run bench:voice -- greeting [--calls 10] [--cap 2500] [--write]
//
// The speech services and the chat model are the local fakes answering at once.
import os from 'node:os';
import { percentile } from '../../src/common/percentile';
import { FRAME_BYTES, FRAME_MS } from '../../src/modules/voice/media/media-stream';
import { reportHarness as harness } from '../lib/report-harness';
import { type LiveCall, VoiceRig } from './live-rig';
import { voicedFrames } from './scripted-caller';

const HEADING = '## Voice runtime: greeting after the callee';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const h = require('../lib/harness') as { run(main: () => Promise<void>): void };

const SILENCE = Buffer.alloc(FRAME_BYTES, 0xff).toString('base64');
const HELLO_AFTER_FRAMES = 15;
const GREETING_TIMEOUT_MS = 15_000;

interface Scenario {
  name: string;
  agent: Record<string, unknown>;
  hello: boolean;
}

interface Sample {
  /** Stream start → first agent frame. */
  fromStartMs: number;
  /** Last voiced frame of "Hello?" sent → first agent frame. */
  fromHelloMs?: number;
}

function parseArgs(argv: string[]) {
  const options = { calls: 10, cap: 2_500, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--calls') options.calls = Number(argv[++i]);
    else if (argv[i] === '--cap') options.cap = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!(options.calls >= 1)) throw new Error('--calls ≥ 1');
  if (!(options.cap >= 500 && options.cap <= 4_000)) throw new Error('--cap in 500–4000 ms');
  return options;
}

/**
 * Plays the provider's side of one call until its first agent frame: silence every 20 ms, with
 * `hello` spoken after HELLO_AFTER_FRAMES frames.
 */
function playUntilGreeting(call: LiveCall, hello: string[] | undefined): Promise<Sample> {
  const { caller } = call;
  const script = hello ? [...Array<string>(HELLO_AFTER_FRAMES).fill(SILENCE), ...hello] : [];
  let helloEndAt: number | undefined;
  let sent = 0;
  return new Promise((resolve, reject) => {
    const tick = () => {
      const now = performance.now();
      const first = caller.frames[0];
      if (first) {
        resolve({
          fromStartMs: first.at - caller.startedAt,
          ...(helloEndAt !== undefined && { fromHelloMs: first.at - helloEndAt }),
        });
        return;
      }
      if (now - caller.startedAt > GREETING_TIMEOUT_MS) {
        reject(new Error(`no greeting within ${GREETING_TIMEOUT_MS} ms`));
        return;
      }
      // Every frame due by now, as a provider's track keeps real time.
      while (caller.startedAt + (sent + 1) * FRAME_MS <= now) {
        caller.sendPayload(script[sent] ?? SILENCE);
        sent += 1;
        if (sent === script.length) helloEndAt = performance.now();
      }
      setTimeout(tick, Math.max(0, caller.startedAt + (sent + 1) * FRAME_MS - performance.now()));
    };
    tick();
  });
}

async function runScenario(rig: VoiceRig, scenario: Scenario, calls: number): Promise<Sample[]> {
  await rig.useAgent(scenario.agent);
  const hello = scenario.hello ? voicedFrames('../answers/human-1.ulaw') : undefined;
  const samples: Sample[] = [];
  for (let i = 0; i < calls; i++) {
    let call: LiveCall | undefined;
    await rig.placeCalls(1, (placed) => (call = placed));
    if (!call) throw new Error('the call was not connected');
    samples.push(await playUntilGreeting(call, hello));
    await rig.hangUp([call]);
  }
  return samples;
}

const fmt = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '—');
const stats = (values: number[]) =>
  `${fmt(percentile(values, 0.5))} | ${fmt(percentile(values, 0.95))} | ${fmt(percentile(values, 1))}`;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const scenarios: Scenario[] = [
    { name: 'agent first, silent line', agent: {}, hello: false },
    {
      name: 'callee first, silent callee',
      agent: { firstSpeaker: 'callee', calleeFirstWaitMs: options.cap },
      hello: false,
    },
    {
      name: 'callee first, "Hello?" 0.3 s in',
      agent: { firstSpeaker: 'callee', calleeFirstWaitMs: options.cap },
      hello: true,
    },
  ];
  const load = os.loadavg()[0];
  const rig = await VoiceRig.start('fake');
  const results: Array<{ scenario: Scenario; samples: Sample[] }> = [];
  try {
    for (const scenario of scenarios) {
      const samples = await runScenario(rig, scenario, options.calls);
      results.push({ scenario, samples });
      console.log(
        `${scenario.name}: greeting after the stream's start p50 ${fmt(
          percentile(
            samples.map((s) => s.fromStartMs),
            0.5,
          ),
        )} ms`,
      );
    }
  } catch (error) {
    console.error(rig.serverOutput().slice(-4_000));
    throw error;
  } finally {
    await rig.stop();
  }
  const [baseline, silent, hello] = results.map(({ samples }) => samples);
  const base = percentile(
    baseline.map((s) => s.fromStartMs),
    0.5,
  );
  const addedSilent =
    percentile(
      silent.map((s) => s.fromStartMs),
      1,
    ) - base;
  const addedHello =
    percentile(
      hello.map((s) => s.fromStartMs),
      1,
    ) - base;
  const machine = await harness.machine();
  const text = [
    HEADING,
    '',
    `Measured ${machine.date} on ${harness.describeMachine(machine)} with \`npm run build && npm run bench:voice -- greeting --calls ${options.calls} --cap ${options.cap} --write\`; 1-minute load average at the start: ${load.toFixed(2)}.`,
    '',
    'Live calls through the built server (dialer, Twilio fake, real media-stream WebSocket), one at a time; the bench plays the provider, a 20 ms frame every 20 ms from the stream\'s start. Speech and the model are the local fakes, answering at once. "Agent first" greets as soon as the caller\'s first frame arrives; "callee first" (`firstSpeaker: callee`, `calleeFirstWaitMs` = the cap) waits for the callee\'s words and their end, or the cap on a silent line. The "Hello?" is `test/fixtures/answers/human-1.ulaw` (its voiced frames, 0.3 s after the start).',
    '',
    '| scenario | calls | start → greeting p50 ms | p95 ms | max ms | end of "Hello?" → greeting p50 ms | p95 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(({ scenario, samples }) => {
      const fromHello = samples.flatMap((s) =>
        s.fromHelloMs === undefined ? [] : [s.fromHelloMs],
      );
      return `| ${scenario.name} | ${samples.length} | ${stats(samples.map((s) => s.fromStartMs))} | ${fromHello.length ? stats(fromHello) : '— | — | —'} |`;
    }),
    '',
    `Waiting for the callee added at most ${fmt(addedSilent)} ms on a silent line and ${fmt(addedHello)} ms with "Hello?" (worst call against the agent-first median), against a cap of ${options.cap} ms: ${addedSilent <= options.cap + 100 && addedHello <= options.cap + 100 ? 'within' : 'over'} the cap (100 ms allowed for a frame's and a timer's granularity).`,
    '',
  ].join('\n');
  console.log(text);
  if (options.write) await harness.writeSection(HEADING, machine, text);
}

if (require.main === module) h.run(main);
