import { decodeUlawInto } from './g711';
import { Resampler } from './resampler';
import {
  VAD_CONTEXT_SAMPLES,
  VAD_INPUT_SAMPLES,
  VAD_SAMPLE_RATE,
  VAD_STATE_SIZE,
  VAD_WINDOW_SAMPLES,
} from './silero-model';

const CALLER_RATE = 8_000;
/** A 20 ms caller frame; longer frames grow the decode buffer once. */
const FRAME_SAMPLES = 160;
const WINDOW_MS = (VAD_WINDOW_SAMPLES * 1_000) / VAD_SAMPLE_RATE;

/** Called once per 32 ms window: its speech probability and the audio time (ms) at its end. */
export type ProbabilityListener = (probability: number, atMs: number) => void;

/** A window cut from the call's audio, waiting for the model: context + new samples, as floats. */
export interface PendingWindow {
  input: Float32Array;
  endsAtMs: number;
}

/** What a stream needs of the detector that batches it. */
export interface VadScheduling {
  windowReady(stream: VadStream): void;
  closed(stream: VadStream): void;
}

/**
 * One call's side of the voice activity detector: caller μ-law in, 16 kHz windows out to the
 * shared batch, probabilities back in window order. The recurrent state lives here, so each
 * call's windows see the state its previous window left.
 */
export class VadStream {
  readonly state = new Float32Array(VAD_STATE_SIZE);
  /** At most one of this stream's windows is in a batch at a time: the next needs its state. */
  inFlight = false;
  private readonly resampler = new Resampler(CALLER_RATE, VAD_SAMPLE_RATE);
  private readonly windows: PendingWindow[] = [];
  /** Context and not yet windowed samples, scaled to [-1, 1), in `samples[0, held)`. */
  private samples = new Float32Array(VAD_INPUT_SAMPLES + VAD_WINDOW_SAMPLES);
  private held = VAD_CONTEXT_SAMPLES;
  /** Reused for each frame's decoded samples (the resampler copies what it keeps). */
  private decoded = new Int16Array(FRAME_SAMPLES);
  private windowsCut = 0;
  private droppedWindows = 0;
  private isClosed = false;

  constructor(
    private readonly listener: ProbabilityListener,
    private readonly scheduling: VadScheduling,
    private readonly maxQueuedWindows: number,
  ) {}

  get closed(): boolean {
    return this.isClosed;
  }

  get queuedWindows(): number {
    return this.windows.length;
  }

  /** Windows dropped because the detector fell behind (oldest first). */
  get dropped(): number {
    return this.droppedWindows;
  }

  /** One frame (any length) of caller audio, μ-law 8 kHz. */
  push(ulaw: Uint8Array): void {
    if (this.isClosed) return;
    if (ulaw.length > this.decoded.length) this.decoded = new Int16Array(ulaw.length);
    const upsampled = this.resampler.push(decodeUlawInto(ulaw, this.decoded));
    const length = this.held + upsampled.length;
    if (length > this.samples.length) {
      const grown = new Float32Array(length);
      grown.set(this.samples.subarray(0, this.held));
      this.samples = grown;
    }
    const samples = this.samples;
    for (let i = 0; i < upsampled.length; i++) samples[this.held + i] = upsampled[i] / 32_768;
    let start = 0;
    while (length - start >= VAD_INPUT_SAMPLES) {
      this.queueWindow(samples.slice(start, start + VAD_INPUT_SAMPLES));
      start += VAD_WINDOW_SAMPLES;
    }
    samples.copyWithin(0, start, length);
    this.held = length - start;
  }

  /** The oldest window, for the next batch. */
  takeWindow(): PendingWindow | undefined {
    return this.windows.shift();
  }

  deliver(probability: number, atMs: number): void {
    if (!this.isClosed) this.listener(probability, atMs);
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.windows.length = 0;
    this.scheduling.closed(this);
  }

  private queueWindow(input: Float32Array): void {
    this.windowsCut += 1;
    if (this.windows.length >= this.maxQueuedWindows) {
      this.windows.shift();
      this.droppedWindows += 1;
    }
    this.windows.push({ input, endsAtMs: this.windowsCut * WINDOW_MS });
    this.scheduling.windowReady(this);
  }
}
