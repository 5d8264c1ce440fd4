/**
 * The offline speech engine (issue #14): how long PocketSphinx takes from the end of a caller's
 * turn to its transcript, and how soon eSpeak NG's first μ-law chunk arrives for a one-sentence
 * answer. Recognition is measured three ways: a fresh process per turn (the model loaded every
 * time, as the engine first worked), the long-lived decoder the engine now keeps, and the
 * long-lived decoder on a turn as a call hands it over (the words inside seconds of line silence).
 *
 *   npm run bench:offline-speech -- [--runs 20] [--write]
 */
import { loadavg } from 'node:os';
import { EspeakTextToSpeech } from '../src/modules/voice/speech/offline/espeak-tts';
import { PocketsphinxSpeechToText } from '../src/modules/voice/speech/offline/pocketsphinx-stt';
import { percentile } from '../src/common/percentile';

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
const ULAW_SILENCE = 0xff;
/** A turn as the session finishes it: line silence since the last turn, the words, 0.6 s more. */
const LEADING_SILENCE_BYTES = 8000 * 5;
const TRAILING_SILENCE_BYTES = 8000 * 0.6;

const ms = (value: number) => `${value.toFixed(0)} ms`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(', ');

interface Series {
  label: string;
  times: number[];
  heard: string;
}

async function timed(label: string, runs: number, once: () => Promise<string>): Promise<Series> {
  const series: Series = { label, times: [], heard: '' };
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    series.heard = await once();
    series.times.push(performance.now() - start);
  }
  series.times.sort((a, b) => a - b);
  return series;
}

const row = ({ label, times }: Series) =>
  `| ${label} | ${ms(percentile(times, 0.5))} | ${ms(percentile(times, 0.95))} | ${ms(times[times.length - 1])} |`;

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
  // Exactly 2 s of caller audio: the sentence, cut or padded with μ-law silence.
  const utterance = Buffer.alloc(16000, ULAW_SILENCE);
  Buffer.concat(chunks).copy(utterance, 0, 0, 16000);
  const turn = Buffer.concat([
    Buffer.alloc(LEADING_SILENCE_BYTES, ULAW_SILENCE),
    utterance,
    Buffer.alloc(TRAILING_SILENCE_BYTES, ULAW_SILENCE),
  ]);
  const loadBefore = load();

  const fresh = await timed(
    'PocketSphinx, a new process per turn (model loaded each time)',
    runs,
    async () => {
      const stt = new PocketsphinxSpeechToText(1);
      try {
        return await stt.transcribe(utterance);
      } finally {
        await stt.close();
      }
    },
  );
  const stt = new PocketsphinxSpeechToText(1);
  try {
    await stt.transcribe(utterance); // the model loads once, before the first call's first turn
    const kept = await timed('PocketSphinx, the long-lived decoder', runs, () =>
      stt.transcribe(utterance),
    );
    const inCall = await timed(
      'PocketSphinx, long-lived, the turn as a call hands it over (5 s silence first)',
      runs,
      () => stt.transcribe(turn),
    );
    const firstChunk = await timed(
      'eSpeak NG, one sentence, request → first μ-law chunk',
      runs,
      async () => {
        for await (const chunk of tts.synthesize(ANSWER, {
          voice: '',
          language: 'en-US',
          signal,
        })) {
          if (chunk.length > 0) break;
        }
        return '';
      },
    );
    const m = await h.machine();
    const text = [
      HEADING,
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} on ${h.describeMachine(m)} with ` +
        `\`npm run bench:offline-speech -- --runs ${runs} --write\`. Load average (1, 5, 15 min): ` +
        `${loadBefore} before, ${load()} after (other work shared the cores).`,
      '',
      "End of turn → transcript for a 2 s utterance, and eSpeak NG's first audio:",
      '',
      '| | p50 | p95 | max |',
      '|---|---|---|---|',
      row(fresh),
      row(kept),
      row(inCall),
      row(firstChunk),
      '',
      `The utterance was "${UTTERANCE}" spoken by eSpeak NG and sent as 8 kHz μ-law; PocketSphinx ` +
        `heard "${kept.heard}" (fresh process: "${fresh.heard}"; in a call's turn: "${inCall.heard}").`,
      '',
    ].join('\n');
    console.log(text);
    if (write) await h.writeSection(HEADING, m, text);
  } finally {
    await stt.close();
  }
}

h.run(main);
