import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { sileroModelPath, VAD_INPUT_SAMPLES, VAD_STATE_SIZE, type VadModel } from './silero-model';
import { loadSileroModelInWorker } from './silero-worker';
import { VadStream, type ProbabilityListener, type VadScheduling } from './vad-stream';

export interface VoiceActivityDetectorOptions {
  /** Resolved at first use when not given, so a missing package shows in readiness, not at start. */
  modelPath?: string;
  /**
   * Windows per model run. Batching cuts the cost per window ~3× (research §7); the run happens
   * in the model's worker thread, so its length only delays the probabilities.
   */
  maxBatch: number;
  /** Windows a call may have waiting before the oldest are dropped (64 ≈ 2 s of audio). */
  maxQueuedWindows: number;
  /** Default: the model in a worker thread, off the event loop (`loadSileroModelInWorker`). */
  loadModel: (modelPath: string) => Promise<VadModel>;
}

export interface VadReadiness {
  ready: boolean;
  /** Why not, in words for the start-up log. */
  reason?: string;
}

/**
 * Silero VAD for every call in the process. The model loads once, on first use; each call opens
 * a stream and pushes its caller frames; windows of many calls go through the model together,
 * one window per call per run so each call's state stays in order.
 */
export class VoiceActivityDetector implements VadScheduling, OnModuleDestroy {
  private readonly logger = new Logger(VoiceActivityDetector.name);
  private readonly options: VoiceActivityDetectorOptions;
  /** Streams with a window waiting and none in flight, oldest first (round robin). */
  private readonly waiting = new Set<VadStream>();
  private model: Promise<VadModel> | undefined;
  private loadError: string | undefined;
  private running = false;
  private settledWaiters: (() => void)[] = [];
  private batchRuns = 0;
  private windowsScored = 0;
  /** Reused for every run: one run at a time. */
  private readonly input: Float32Array;

  constructor(options: Partial<VoiceActivityDetectorOptions> = {}) {
    this.options = {
      maxBatch: 32,
      maxQueuedWindows: 64,
      loadModel: loadSileroModelInWorker,
      ...options,
    };
    this.input = new Float32Array(this.options.maxBatch * VAD_INPUT_SAMPLES);
  }

  /** A stream for one call; `listener` gets each 32 ms window's speech probability. */
  open(listener: ProbabilityListener): VadStream {
    // Start loading now; a failure is reported by readiness, never as an unhandled rejection.
    this.loadModel().catch(() => undefined);
    return new VadStream(listener, this, this.options.maxQueuedWindows);
  }

  /** Loads the model if needed; not ready (with the reason) when it cannot load. */
  async readiness(): Promise<VadReadiness> {
    try {
      await this.loadModel();
      return { ready: true };
    } catch {
      return { ready: false, reason: `voice activity model not loaded: ${this.loadError}` };
    }
  }

  /** Runs and windows scored so far (for benchmarks and metrics). */
  get stats(): { batchRuns: number; windowsScored: number } {
    return { batchRuns: this.batchRuns, windowsScored: this.windowsScored };
  }

  /** Resolves once every window pushed so far has been scored (or dropped). */
  settled(): Promise<void> {
    if (!this.running && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  async onModuleDestroy(): Promise<void> {
    const model = this.model;
    this.model = undefined;
    if (model) await (await model.catch(() => undefined))?.release();
  }

  windowReady(stream: VadStream): void {
    if (stream.inFlight) return;
    this.waiting.add(stream);
    this.scheduleRun();
  }

  closed(stream: VadStream): void {
    this.waiting.delete(stream);
  }

  private loadModel(): Promise<VadModel> {
    this.model ??= Promise.resolve()
      .then(() => this.options.loadModel(this.options.modelPath ?? sileroModelPath()))
      .catch((error: unknown) => {
        this.loadError = (error as Error).message;
        this.logger.error(`voice activity model not loaded: ${this.loadError}`);
        throw error;
      });
    return this.model;
  }

  private scheduleRun(): void {
    if (this.running) return;
    this.running = true;
    // After the current frame's work and any due timers: a run holds the event loop.
    setImmediate(() => void this.runBatches());
  }

  private async runBatches(): Promise<void> {
    try {
      const model = await this.loadModel();
      while (this.waiting.size > 0) {
        await this.runBatch(model);
        // Let pacing timers and socket reads in between two runs.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      // Readiness says why the model cannot load; a failed run is logged. The audio is dropped.
      if (this.loadError === undefined) {
        this.logger.error(`voice activity run failed: ${(error as Error).message}`);
      }
      for (const stream of this.waiting) while (stream.takeWindow());
      this.waiting.clear();
    } finally {
      this.running = false;
      if (this.waiting.size > 0) this.scheduleRun();
      else this.notifySettled();
    }
  }

  private async runBatch(model: VadModel): Promise<void> {
    const batch: { stream: VadStream; endsAtMs: number }[] = [];
    for (const stream of this.waiting) {
      if (batch.length >= this.options.maxBatch) break;
      this.waiting.delete(stream);
      const window = stream.takeWindow();
      if (!window) continue;
      stream.inFlight = true;
      batch.push({ stream, endsAtMs: window.endsAtMs });
      this.input.set(window.input, (batch.length - 1) * VAD_INPUT_SAMPLES);
    }
    if (batch.length === 0) return;
    const size = batch.length;
    const input = this.input.subarray(0, size * VAD_INPUT_SAMPLES);
    const state = gatherStates(batch.map((entry) => entry.stream.state));
    let result: Awaited<ReturnType<VadModel['run']>>;
    try {
      result = await model.run(input, state, size);
    } finally {
      for (const { stream } of batch) stream.inFlight = false;
    }
    this.batchRuns += 1;
    this.windowsScored += size;
    batch.forEach(({ stream, endsAtMs }, index) => {
      scatterState(result.state, size, index, stream.state);
      stream.deliver(result.probabilities[index], endsAtMs);
      if (!stream.closed && stream.queuedWindows > 0) this.waiting.add(stream);
    });
  }

  private notifySettled(): void {
    const waiters = this.settledWaiters;
    this.settledWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

const HALF_STATE = VAD_STATE_SIZE / 2;

/** Per-stream [2, 1, 128] states → the model's [2, batch, 128]. */
function gatherStates(states: Float32Array[]): Float32Array {
  const batch = states.length;
  const out = new Float32Array(2 * batch * HALF_STATE);
  states.forEach((state, b) => {
    out.set(state.subarray(0, HALF_STATE), b * HALF_STATE);
    out.set(state.subarray(HALF_STATE), (batch + b) * HALF_STATE);
  });
  return out;
}

/** The model's [2, batch, 128] state → stream `index`'s [2, 1, 128]. */
function scatterState(all: Float32Array, batch: number, index: number, into: Float32Array): void {
  into.set(all.subarray(index * HALF_STATE, (index + 1) * HALF_STATE), 0);
  into.set(
    all.subarray((batch + index) * HALF_STATE, (batch + index + 1) * HALF_STATE),
    HALF_STATE,
  );
}
