/**
 * The offline speech engine (issue #14): how long PocketSphinx takes to transcribe a 2 s caller
 * utterance once the turn ends (μ-law decode, 8→16 kHz resampling, temp WAV, the process), and
 * how soon eSpeak NG's first μ-law chunk arrives for a one-sentence answer.
 *
 *   npm run bench:offline-speech -- [--runs 20] [--write]
 */
import { loadavg } from 'node:os';
import { EspeakTextToSpeech } from '../src/modules/voice/speech/offline/espeak-tts';
import { transcribeWithPocketsphinx } from '../src/modules/voice/speech/offline/pocketsphinx-stt';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const h = require('./lib/harness') as {
  machine(): Promise<unknown>;
  describeMachine(m: unknown): string;
  writeSection(heading: string, m: unknown, text: string): Promise<void>;
  run(main: () => Promise<void>): void;
};

const HEADING = '## Offline speech engine: PocketSphinx and eSpeak NG latency';
const UTTERANCE = 'what are your opening hours on saturday morning please';
const ANSWER = 'We are open from nine in the morning until five in the afternoon.';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function main(): Promise<void> {
  const runsFlag = process.argv.indexOf('--runs');
  const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 20;
  const write = process.argv.includes('--write');
  const tts = new EspeakTextToSpeech('en-us');
  const signal = new AbortController().signal;

  const chunks: Buffer[] = [];
  for await (const chunk of tts.synthesize(UTTERANCE, { voice: '', language: 'en-US', signal })) {
    chunks.push(chunk);
  }
  // Exactly 2 s of caller audio: the sentence, cut or padded with μ-law silence (0xff).
  const utterance = Buffer.alloc(16000, 0xff);
  Buffer.concat(chunks).copy(utterance, 0, 0, 16000);

  const stt: number[] = [];
  const firstChunk: number[] = [];
  let transcript = '';
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    transcript = await transcribeWithPocketsphinx(utterance);
    stt.push(performance.now() - start);
    const speakStart = performance.now();
    for await (const chunk of tts.synthesize(ANSWER, { voice: '', language: 'en-US', signal })) {
      if (chunk.length > 0) firstChunk.push(performance.now() - speakStart);
      break;
    }
  }
  stt.sort((a, b) => a - b);
  firstChunk.sort((a, b) => a - b);
  const m = await h.machine();
  const text = [
    HEADING,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${h.describeMachine(m)} with ` +
      `\`npm run bench:offline-speech -- --runs ${runs} --write\`. Load average (1, 5, 15 min): ` +
      `${loadavg()
        .map((load) => load.toFixed(1))
        .join(', ')} (other work shared the cores).`,
    '',
    '| | p50 | p95 | max |',
    '|---|---|---|---|',
    `| PocketSphinx, 2 s utterance, end of turn → transcript | ${ms(percentile(stt, 50))} | ${ms(percentile(stt, 95))} | ${ms(stt[stt.length - 1])} |`,
    `| eSpeak NG, one sentence, request → first μ-law chunk | ${ms(percentile(firstChunk, 50))} | ${ms(percentile(firstChunk, 95))} | ${ms(firstChunk[firstChunk.length - 1])} |`,
    '',
    `The utterance was "${UTTERANCE}" spoken by eSpeak NG; PocketSphinx heard "${transcript}".`,
    '',
  ].join('\n');
  console.log(text);
  if (write) await h.writeSection(HEADING, m, text);
}

h.run(main);
