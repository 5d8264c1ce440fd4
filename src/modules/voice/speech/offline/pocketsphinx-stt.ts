import { availableParallelism } from 'node:os';
import { decodeUlaw } from '../../audio/g711';
import { resample } from '../../audio/resampler';
import { speechSpan } from '../../audio/speech-span';
import { BatchRecognitionStream } from '../batch-recognition-stream';
import type { RecognitionStream, SpeechToText } from '../speech-engines';
import { arpaLanguageModel } from './arpa-language-model';
import { DecoderPool } from './decoder-pool';
import { FIRST_TURN_PHRASES } from './first-turn-phrases';
import { POCKETSPHINX_RATE, PocketsphinxDecoder } from './pocketsphinx-decoder';

const CALL_RATE = 8000;

/**
 * PocketSphinx 0.8 on each whole utterance, through long-lived decoders (the model loads once,
 * not once per turn): at most one per core, up to two, started as calls need them. Only the
 * speech in a turn is decoded, resampled to the 16 kHz of the model. A call's first seconds can
 * also be decoded against a model of what answers a call says (`transcribeGreeting`), on a
 * decoder of their own.
 */
export class PocketsphinxSpeechToText implements SpeechToText {
  private readonly general: DecoderPool;
  private readonly greetings = new DecoderPool(1, () =>
    PocketsphinxDecoder.start({ languageModel: firstTurnModel() }),
  );

  constructor(maxDecoders = Math.min(2, availableParallelism())) {
    this.general = new DecoderPool(maxDecoders, () => PocketsphinxDecoder.start());
  }

  open(_options?: { language: string }): RecognitionStream {
    // Loads the model while the greeting plays, so the first turn does not wait for it.
    this.prepare();
    return new BatchRecognitionStream((ulaw, signal) => this.transcribe(ulaw, signal));
  }

  prepare(): void {
    if (!this.general.started) this.general.decoder().catch(() => undefined);
  }

  transcribe(ulaw: Buffer, signal?: AbortSignal): Promise<string> {
    return this.decode(this.general, ulaw, signal);
  }

  /**
   * The general model makes little of a machine's greeting ("you hungry but what would you want
   * my real out"), and AnswerWatch tells a full mailbox, a menu and a screening prompt by their
   * words: against the first-turn model (first-turn-phrases.ts) they come out close to what was said.
   */
  transcribeGreeting(ulaw: Buffer, signal?: AbortSignal): Promise<string> {
    return this.decode(this.greetings, ulaw, signal);
  }

  /** Stops every decoder (the app's shutdown); later turns start new ones. */
  async close(): Promise<void> {
    await Promise.all([this.general.close(), this.greetings.close()]);
  }

  private async decode(pool: DecoderPool, ulaw: Buffer, signal?: AbortSignal): Promise<string> {
    const speech = speechSpan(decodeUlaw(ulaw), CALL_RATE);
    if (speech.length === 0) return '';
    const samples = addComfortNoise(resample(speech, CALL_RATE, POCKETSPHINX_RATE));
    return (await pool.decoder()).transcribe(samples, signal);
  }
}

/** Built once per process, on the first greeting (about 0.1 s). */
let firstTurnArpa: string | undefined;
const firstTurnModel = () => (firstTurnArpa ??= arpaLanguageModel(FIRST_TURN_PHRASES));

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
