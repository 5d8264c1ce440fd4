/**
 * Speaks the labelled set of answers (greetings.ts) with eSpeak NG into phone-quality audio —
 * 8 kHz μ-law, a quiet line's hiss under everything, a voicemail's beep, a fax machine's tones —
 * and writes test/fixtures/answers/{name}.ulaw. Deterministic: the same eSpeak NG gives the same
 * files.
 *
 *   npm run fixtures:answers
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeUlaw, encodeUlaw } from '../../src/modules/voice/audio/g711';
import { EspeakTextToSpeech } from '../../src/modules/voice/speech/offline/espeak-tts';
import { LABELLED_ANSWERS, type LabelledAnswer } from './greetings';

export const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures', 'answers');
const RATE = 8_000;

/** A seeded generator (mulberry32): the same hiss every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const silence = (ms: number) => new Int16Array((ms * RATE) / 1_000);

function tone(hz: number, ms: number, amplitude = 8_000): Int16Array {
  return Int16Array.from({ length: (ms * RATE) / 1_000 }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE)),
  );
}

/** V.21 channel 2 HDLC flags: FSK at 300 baud between 1,650 and 1,850 Hz. */
function v21Flags(ms: number): Int16Array {
  const flag = [0, 1, 1, 1, 1, 1, 1, 0];
  let phase = 0;
  return Int16Array.from({ length: (ms * RATE) / 1_000 }, (_, i) => {
    const bit = flag[Math.floor((i * 300) / RATE) % flag.length];
    phase += (2 * Math.PI * (bit ? 1_650 : 1_850)) / RATE;
    return Math.round(6_000 * Math.sin(phase));
  });
}

async function speak(text: string, voice: string): Promise<Int16Array> {
  const tts = new EspeakTextToSpeech(voice);
  const chunks: Buffer[] = [];
  const signal = new AbortController().signal;
  for await (const chunk of tts.synthesize(text, { voice, language: 'en-US', signal }))
    chunks.push(chunk);
  return decodeUlaw(Buffer.concat(chunks));
}

function join(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The answer's audio: a little line silence, what it says or sounds, then 3 s of line. */
export async function answerAudio(answer: LabelledAnswer, index: number): Promise<Buffer> {
  const leadMs = 200 + (index % 4) * 150;
  const body = answer.fax
    ? [tone(2_100, 3_000), silence(75), v21Flags(1_500)]
    : [
        await speak(answer.text, answer.voice),
        ...(answer.beep ? [silence(500), tone(1_000, 400)] : []),
      ];
  const samples = join([silence(leadMs), ...body, silence(3_000)]);
  const hiss = random(index + 1);
  for (let i = 0; i < samples.length; i++) {
    const noisy = samples[i] + Math.round((hiss() - 0.5) * 120);
    samples[i] = Math.max(-32_768, Math.min(32_767, noisy));
  }
  return encodeUlaw(samples);
}

async function main(): Promise<void> {
  await mkdir(FIXTURES, { recursive: true });
  for (const [index, answer] of LABELLED_ANSWERS.entries()) {
    await writeFile(path.join(FIXTURES, `${answer.name}.ulaw`), await answerAudio(answer, index));
  }
  console.log(
    `Wrote ${LABELLED_ANSWERS.length} answers to ${path.relative(process.cwd(), FIXTURES)}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
