// Voice runtime: turn latency with the offline engine for real (issue #14): Silero VAD,
// PocketSphinx and eSpeak NG inside the built server, one call, a few turns; the chat model is
// still the local fake (answering at once), so the time is the runtime's and the engine's.
//
//   npm run build && npm run bench:voice -- offline [--turns 5] [--repeat 2] [--write]
//
// Shares: "end of turn + STT" is last voiced frame → the chat request reaching the fake, beyond
// the end-of-turn silence (VAD hangover, PocketSphinx on the utterance, the turn stored and the
// prompt built); "TTS" is chat request → first agent frame (the reply read, eSpeak NG's first
// audio, μ-law, the pacer, the socket).
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { reportHarness as harness } from '../lib/report-harness';
import { percentile, runStep, type StepResult } from './calls';
import { VoiceRig } from './live-rig';

const HEADING = '## Voice runtime: turn latency with the offline engine';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const h = require('../lib/harness') as { ROOT: string; run(main: () => Promise<void>): void };

function parseArgs(argv: string[]) {
  const options = { turns: 5, repeat: 2, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--turns') options.turns = Number(argv[++i]);
    else if (argv[i] === '--repeat') options.repeat = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!(options.turns >= 1) || !(options.repeat >= 1)) throw new Error('--turns, --repeat ≥ 1');
  return options;
}

/** The last commit that touched the offline engine: another helper may be speeding it up. */
function engineCommit(): string {
  return execFileSync(
    'git',
    ['log', '-1', '--format=%h %cs', '--', 'src/modules/voice/speech/offline'],
    { cwd: h.ROOT, encoding: 'utf8' },
  ).trim();
}

const fmt = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : '—');

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const rig = await VoiceRig.start('offline');
  const runs: StepResult[] = [];
  try {
    for (let repeat = 1; repeat <= options.repeat; repeat++) {
      // PocketSphinx on a busy box can take seconds: a reply within 30 s is not missed.
      const step = await runStep(rig, 1, options.turns, repeat, 30_000);
      runs.push(step);
      const p = (q: number) => fmt(percentile(step.latencies, q));
      console.log(
        `run ${repeat}: turn p50 ${p(0.5)} ms, max ${p(1)} ms, ${step.missed} missed; load ${os.loadavg()[0].toFixed(2)}`,
      );
    }
  } catch (error) {
    console.error(rig.serverOutput().slice(-4_000));
    throw error;
  } finally {
    await rig.stop();
  }
  const stages = runs.flatMap((run) => run.stages ?? []);
  const latencies = runs.flatMap((run) => run.latencies);
  const row = (name: string, values: number[]) =>
    `| ${name} | ${values.length} | ${fmt(percentile(values, 0.5))} | ${fmt(percentile(values, 0.95))} | ${fmt(percentile(values, 1))} |`;
  const toChat = stages.map((stage) => stage.toChat);
  const afterChat = stages.map((stage) => stage.afterChat);
  const machine = await harness.machine();
  const total = percentile(latencies, 0.5);
  const text = [
    HEADING,
    '',
    `Measured ${machine.date} on ${harness.describeMachine(machine)} with \`npm run build && npm run bench:voice -- offline --turns ${options.turns} --repeat ${options.repeat} --write\`; the offline engine as of commit ${engineCommit()} (\`src/modules/voice/speech/offline\`). 1-minute load average at the start of each run: ${runs.map((run) => run.load1.toFixed(2)).join(', ')}.`,
    '',
    'The same live call as "Voice runtime: live calls" (built server, dialer, Twilio fake, real media-stream WebSocket, `opening-hours.ulaw` trimmed to its voiced frames), one call at a time, with `STT_PROVIDER=offline` and `TTS_PROVIDER=offline`: PocketSphinx and eSpeak NG run for real inside the server; only the chat model is the fake. Latency is first agent frame received − last voiced caller frame sent − the 500 ms end-of-turn silence.',
    '',
    '| | turns | p50 ms | p95 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: |',
    row('turn latency beyond the end-of-turn silence', latencies),
    row('end of turn + STT: last voiced frame → chat request, beyond the silence', toChat),
    row('TTS: chat request → first agent frame', afterChat),
    '',
    `Missed turns (no reply within 30 s, e.g. PocketSphinx heard nothing or a backchannel): ${runs.reduce((sum, run) => sum + run.missed, 0)}. ` +
      `At the median, end of turn + STT is ${fmt((percentile(toChat, 0.5) / total) * 100)} % of the turn and TTS ${fmt((percentile(afterChat, 0.5) / total) * 100)} %.`,
    '',
  ].join('\n');
  console.log(text);
  if (options.write) await harness.writeSection(HEADING, machine, text);
}

if (require.main === module) h.run(main);
