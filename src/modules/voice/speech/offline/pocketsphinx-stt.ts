import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeUlaw } from '../../audio/g711';
import { resample } from '../../audio/resampler';
import { BatchRecognitionStream } from '../batch-recognition-stream';
import type { RecognitionStream, SpeechToText } from '../speech-engines';
import { encodeWav } from '../wav';
import { runCommand } from './child-process';

export const POCKETSPHINX_COMMAND = 'pocketsphinx_continuous';
/** Where Debian's pocketsphinx-en-us puts the US English model (the only one packaged). */
export const POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const MODEL_RATE = 16000;

/** PocketSphinx 0.8 on each whole utterance, resampled to the 16 kHz of its model. */
export class PocketsphinxSpeechToText implements SpeechToText {
  open(): RecognitionStream {
    return new BatchRecognitionStream((ulaw, signal) => transcribeWithPocketsphinx(ulaw, signal));
  }
}

export async function transcribeWithPocketsphinx(
  ulaw: Buffer,
  signal?: AbortSignal,
): Promise<string> {
  const samples = addComfortNoise(resample(decodeUlaw(ulaw), 8000, MODEL_RATE));
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-stt-'));
  try {
    const file = join(dir, 'utterance.wav');
    await writeFile(file, encodeWav(samples, MODEL_RATE));
    const stdout = await runCommand(
      POCKETSPHINX_COMMAND,
      [
        '-infile',
        file,
        '-hmm',
        join(POCKETSPHINX_MODEL_DIR, 'en-us'),
        '-lm',
        join(POCKETSPHINX_MODEL_DIR, 'en-us.lm.bin'),
        '-dict',
        join(POCKETSPHINX_MODEL_DIR, 'cmudict-en-us.dict'),
        '-logfn',
        '/dev/null',
      ],
      signal,
    );
    // One line per segment it heard.
    return stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join(' ');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const NOISE_AMPLITUDE = 100;

/**
 * Telephone audio has nothing above 4 kHz, and synthetic audio has digital silence: the 16 kHz
 * model's upper filters then see log(0), which wrecks its features ("hello world" came back as
 * "ah well"). A faint, seeded white noise (about -50 dBFS) gives them the floor they were
 * trained on and made the test utterances recognisable again.
 */
function addComfortNoise(samples: Int16Array): Int16Array {
  let seed = 0x2545f491;
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    const noise = ((seed / 0x100000000) * 2 - 1) * NOISE_AMPLITUDE;
    out[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i] + noise)));
  }
  return out;
}
