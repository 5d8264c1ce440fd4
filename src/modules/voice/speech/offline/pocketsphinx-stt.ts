import { availableParallelism } from 'node:os';
import { decodeUlaw } from '../../audio/g711';
import { resample } from '../../audio/resampler';
import { speechSpan } from '../../audio/speech-span';
import { BatchRecognitionStream } from '../batch-recognition-stream';
import type { RecognitionStream, SpeechToText } from '../speech-engines';
import { POCKETSPHINX_RATE, PocketsphinxDecoder } from './pocketsphinx-decoder';

const CALL_RATE = 8000;

/**
 * PocketSphinx 0.8 on each whole utterance, through long-lived decoders (the model loads once,
 * not once per turn): at most one per core, up to two, started as calls need them. Only the
 * speech in a turn is decoded, resampled to the 16 kHz of the model.
 */
export class PocketsphinxSpeechToText implements SpeechToText {
  private readonly decoders: Array<Promise<PocketsphinxDecoder>> = [];
  /** Bumped by close: a decoder asked for before it is not kept after it. */
  private generation = 0;

  constructor(private readonly maxDecoders = Math.min(2, availableParallelism())) {}

  open(_options?: { language: string }): RecognitionStream {
    // Loads the model while the greeting plays, so the first turn does not wait for it.
    this.prepare();
    return new BatchRecognitionStream((ulaw, signal) => this.transcribe(ulaw, signal));
  }

  prepare(): void {
    if (this.decoders.length === 0) this.decoder().catch(() => undefined);
  }

  async transcribe(ulaw: Buffer, signal?: AbortSignal): Promise<string> {
    const speech = speechSpan(decodeUlaw(ulaw), CALL_RATE);
    if (speech.length === 0) return '';
    const samples = addComfortNoise(resample(speech, CALL_RATE, POCKETSPHINX_RATE));
    return (await this.decoder()).transcribe(samples, signal);
  }

  /** Stops every decoder (the app's shutdown); later turns start new ones. */
  async close(): Promise<void> {
    this.generation += 1;
    const decoders = this.decoders.splice(0);
    await Promise.all(decoders.map((d) => d.then((decoder) => decoder.close()).catch(() => {})));
  }

  /** An idle decoder, else a new one while under the limit, else the least loaded. */
  private async decoder(): Promise<PocketsphinxDecoder> {
    const generation = this.generation;
    const settled = await Promise.all(
      this.decoders.map(async (starting) => ({
        starting,
        decoder: await starting.catch(() => undefined),
      })),
    );
    const alive: PocketsphinxDecoder[] = [];
    for (const { starting, decoder } of settled) {
      if (decoder?.alive) alive.push(decoder);
      else forget(this.decoders, starting); // it died: a new one takes its place
    }
    const idle = alive.find((decoder) => decoder.load === 0);
    if (idle) return idle;
    if (generation !== this.generation) throw new Error('the recogniser was closed');
    if (alive.length === 0 || this.decoders.length < this.maxDecoders) {
      const starting = PocketsphinxDecoder.start();
      this.decoders.push(starting);
      return starting;
    }
    return alive.reduce((least, decoder) => (decoder.load < least.load ? decoder : least));
  }
}

function forget<T>(list: T[], item: T): void {
  const at = list.indexOf(item);
  if (at !== -1) list.splice(at, 1);
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
