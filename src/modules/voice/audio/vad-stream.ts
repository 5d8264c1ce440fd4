import { decodeUlawFloatInto } from './g711';
import {
  VAD_CONTEXT_SAMPLES,
  VAD_INPUT_SAMPLES,
  VAD_SAMPLE_RATE,
  VAD_STATE_SIZE,
  VAD_WINDOW_SAMPLES,
} from './silero-model';

const WINDOW_MS = (VAD_WINDOW_SAMPLES * 1_000) / VAD_SAMPLE_RATE;
/** A window waiting, one in flight and a 20 ms frame; a backlog or a longer frame grows it. */
const INITIAL_SAMPLES = 1_024;

/** Called once per 32 ms window: its speech probability and the audio time (ms) at its end. */
export type ProbabilityListener = (probability: number, atMs: number) => void;

/** What a stream needs of the detector that batches it. */
export interface VadScheduling {
  windowReady(stream: VadStream): void;
  closed(stream: VadStream): void;
}

/**
 * One call's side of the voice activity detector: caller μ-law in (8 kHz, the model's own rate),
 * windows out to the shared batch, probabilities back in window order. The recurrent state lives
 * here, so each call's windows see the state its previous window left.
 */
export class VadStream {
  readonly state = new Float32Array(VAD_STATE_SIZE);
  /** At most one of this stream's windows is in a batch at a time: the next needs its state. */
  inFlight = false;
  /**
   * The audio not yet windowed, as floats in [-1, 1): `samples[start, end)`, starting with the
   * context (the last samples of the window before). Each queued window is the next
   * `VAD_INPUT_SAMPLES` of it, consecutive windows overlapping by the context.
   */
  private samples = new Float32Array(INITIAL_SAMPLES);
  private start = 0;
  private end = VAD_CONTEXT_SAMPLES;
  /** Windows taken or dropped so far: their count stamps the next one's end. */
  private windowsDone = 0;
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
    if (this.isClosed) return 0;
    return Math.floor((this.end - this.start - VAD_CONTEXT_SAMPLES) / VAD_WINDOW_SAMPLES);
  }

  /** Windows dropped because the detector fell behind (oldest first). */
  get dropped(): number {
    return this.droppedWindows;
  }

  /** One frame (any length) of caller audio, μ-law 8 kHz. */
  push(ulaw: Uint8Array): void {
    if (this.isClosed) return;
    const before = this.queuedWindows;
    this.reserve(ulaw.length);
    decodeUlawFloatInto(ulaw, this.samples, this.end);
    this.end += ulaw.length;
    const queued = this.queuedWindows;
    if (queued > this.maxQueuedWindows) this.skip(queued - this.maxQueuedWindows, true);
    if (queued > before) this.scheduling.windowReady(this);
  }

  /**
   * Copies the oldest window (context + new samples) into `into` at `offset`, for the next batch;
   * the audio time (ms) at its end, or undefined when none waits.
   */
  takeWindowInto(into: Float32Array, offset: number): number | undefined {
    if (this.queuedWindows === 0) return undefined;
    into.set(this.samples.subarray(this.start, this.start + VAD_INPUT_SAMPLES), offset);
    this.start += VAD_WINDOW_SAMPLES;
    this.windowsDone += 1;
    return this.windowsDone * WINDOW_MS;
  }

  /** Drops the windows waiting (the model failed): later windows keep their times. */
  skipQueued(): void {
    this.skip(this.queuedWindows, false);
  }

  deliver(probability: number, atMs: number): void {
    if (!this.isClosed) this.listener(probability, atMs);
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.samples = new Float32Array(0);
    this.start = this.end = 0;
    this.scheduling.closed(this);
  }

  private skip(windows: number, countAsDropped: boolean): void {
    this.start += windows * VAD_WINDOW_SAMPLES;
    this.windowsDone += windows;
    if (countAsDropped) this.droppedWindows += windows;
  }

  /** Room for `samples` more after `end`: moves the held audio to the front, or grows. */
  private reserve(samples: number): void {
    if (this.end + samples <= this.samples.length) return;
    const held = this.end - this.start;
    if (held + samples > this.samples.length) {
      const grown = new Float32Array(Math.max(2 * this.samples.length, held + samples));
      grown.set(this.samples.subarray(this.start, this.end));
      this.samples = grown;
    } else {
      this.samples.copyWithin(0, this.start, this.end);
    }
    this.start = 0;
    this.end = held;
  }
}
