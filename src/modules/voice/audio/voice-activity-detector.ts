import { detach } from '../../../common/detach';
import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { sileroModelPath, VAD_INPUT_SAMPLES, VAD_STATE_SIZE, type VadModel } from './silero-model';
import { loadSileroModelInWorker } from './silero-worker';
import { VadStream, type ProbabilityListener, type VadScheduling } from './vad-stream';

export interface VoiceActivityDetectorOptions {
  /** Resolved at first use when not given, so a missing package shows in readiness, not at start. */
  modelPath?: string;
  /**
   * Windows per model run, at most. Batching cuts the cost per window ~5× (139 µs a window alone,
   * 28 in 32); the run happens in the model's worker thread, so its length only delays the
   * probabilities.
   */
  maxBatch: number;
  /**
   * How long (ms) a window may wait for other calls' windows to join its run (a full batch runs
   * at once; windows that come while a run is in flight wait for it). Probabilities come this
   * much later: speech start and barge-in wait for them, the end of turn does not (caller frames
   * decide it while the VAD is ≤ 160 ms behind, see TurnTracker).
   */
  gatherMs: number;
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
  /** A run (or the model's load before it) is due or under way: one at a time. */
  private running = false;
  /** When the oldest window waiting is due to run; a timer waits for it. */
  private dueAt = 0;
  private gatherTimer: NodeJS.Timeout | undefined;
  private settledWaiters: (() => void)[] = [];
  private batchRuns = 0;
  private windowsScored = 0;

  constructor(options: Partial<VoiceActivityDetectorOptions> = {}) {
    this.options = {
      maxBatch: 32,
      gatherMs: 5,
      maxQueuedWindows: 64,
      loadModel: loadSileroModelInWorker,
      ...options,
    };
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
    if (!this.running && !this.gatherTimer && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  async onModuleDestroy(): Promise<void> {
    const model = this.model;
    this.model = undefined;
    if (model) await (await model.catch(() => undefined))?.release();
  }

  windowReady(stream: VadStream): void {
    if (stream.inFlight) return;
    if (this.waiting.size === 0) this.dueAt = performance.now() + this.options.gatherMs;
    this.waiting.add(stream);
    this.schedule();
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

  /** Runs the windows waiting once a batch is full or the oldest is due, one run at a time. */
  private schedule(): void {
    if (this.running || this.waiting.size === 0) return;
    const full = this.waiting.size >= this.options.maxBatch;
    if (this.gatherTimer && !full) return;
    clearTimeout(this.gatherTimer);
    this.gatherTimer = undefined;
    const wait = full ? 0 : this.dueAt - performance.now();
    if (wait > 0) {
      this.gatherTimer = setTimeout(() => {
        this.gatherTimer = undefined;
        this.running = true;
        detach(() => this.run(), { what: 'Voice activity run', logger: this.logger });
      }, wait);
      return;
    }
    this.running = true;
    // After the current frame's work: building a batch holds the event loop.
    setImmediate(() =>
      detach(() => this.run(), { what: 'Voice activity run', logger: this.logger }),
    );
  }

  private async run(): Promise<void> {
    try {
      await this.runBatch(await this.loadModel());
    } catch (error) {
      // Readiness says why the model cannot load; a failed run is logged. The audio is dropped.
      if (this.loadError === undefined) {
        this.logger.error(`voice activity run failed: ${(error as Error).message}`);
      }
      for (const stream of this.waiting) stream.skipQueued();
      this.waiting.clear();
    } finally {
      this.running = false;
      if (this.waiting.size > 0) this.schedule();
      else this.notifySettled();
    }
  }

  private async runBatch(model: VadModel): Promise<void> {
    const size = Math.min(this.waiting.size, this.options.maxBatch);
    // Handed to the model: the worker takes these buffers over rather than copying them.
    let input = new Float32Array(size * VAD_INPUT_SAMPLES);
    const batch: { stream: VadStream; endsAtMs: number }[] = [];
    for (const stream of this.waiting) {
      if (batch.length >= size) break;
      this.waiting.delete(stream);
      const endsAtMs = stream.takeWindowInto(input, batch.length * VAD_INPUT_SAMPLES);
      if (endsAtMs === undefined) continue;
      stream.inFlight = true;
      batch.push({ stream, endsAtMs });
    }
    if (batch.length === 0) return;
    const count = batch.length;
    if (count < size) input = input.slice(0, count * VAD_INPUT_SAMPLES);
    const state = gatherStates(batch.map((entry) => entry.stream.state));
    let result: Awaited<ReturnType<VadModel['run']>>;
    try {
      result = await model.run(input, state, count);
    } finally {
      for (const { stream } of batch) stream.inFlight = false;
    }
    this.batchRuns += 1;
    this.windowsScored += count;
    batch.forEach(({ stream, endsAtMs }, index) => {
      scatterState(result.state, count, index, stream.state);
      stream.deliver(result.probabilities[index], endsAtMs);
      // A window that waited through this run is due now.
      if (!stream.closed && stream.queuedWindows > 0) {
        this.waiting.add(stream);
        this.dueAt = performance.now();
      }
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
function gatherStates(states: Float32Array[]): Float32Array<ArrayBuffer> {
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
