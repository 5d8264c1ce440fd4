/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sileroModelPath, VAD_INPUT_SAMPLES, VAD_STATE_SIZE, type VadModel } from './silero-model';
import { loadSileroModelInWorker } from './silero-worker';

const SPEECH = readFileSync(
  path.join(__dirname, '../../../../test/fixtures/audio/caller-speech.ulaw'),
);
const HALF_STATE = VAD_STATE_SIZE / 2;

/** `batch` different windows of speech, as floats. */
function windows(batch: number): Float32Array<ArrayBuffer> {
  const input = new Float32Array(batch * VAD_INPUT_SAMPLES);
  for (let i = 0; i < input.length; i++) input[i] = (SPEECH[(i * 7) % SPEECH.length] - 128) / 128;
  return input;
}

/** Window `index` of a [2, batch, 128] state, as its own [2, 1, 128]. */
function stateOf(all: Float32Array, batch: number, index: number): Float32Array {
  const one = new Float32Array(VAD_STATE_SIZE);
  one.set(all.subarray(index * HALF_STATE, (index + 1) * HALF_STATE));
  one.set(all.subarray((batch + index) * HALF_STATE, (batch + index + 1) * HALF_STATE), HALF_STATE);
  return one;
}

describe('loadSileroModelInWorker', () => {
  const models: VadModel[] = [];
  afterAll(async () => {
    await Promise.all(models.map((model) => model.release()));
  });

  it('scores each window of a batch as it scores that window alone, state included', async () => {
    const model = await loadSileroModelInWorker(sileroModelPath());
    models.push(model);
    const batch = 12;
    const all = windows(batch);
    let batchState = new Float32Array(batch * VAD_STATE_SIZE);
    const alone = Array.from({ length: batch }, () => new Float32Array(VAD_STATE_SIZE));
    for (let run = 0; run < 3; run++) {
      const together = await model.run(all.slice(), batchState, batch);
      expect(together.probabilities).toBeInstanceOf(Float32Array);
      for (let b = 0; b < batch; b++) {
        const input = all.slice(b * VAD_INPUT_SAMPLES, (b + 1) * VAD_INPUT_SAMPLES);
        const one = await model.run(input, alone[b], 1);
        expect(together.probabilities[b]).toBeCloseTo(one.probabilities[0], 5);
        stateOf(together.state, batch, b).forEach((value, i) =>
          expect(value).toBeCloseTo(one.state[i], 4),
        );
        alone[b] = one.state;
      }
      batchState = together.state;
    }
    expect(Math.max(...batchState.map(Math.abs))).toBeGreaterThan(0);
  }, 30_000);

  it('takes the windows and state over without copying them', async () => {
    const model = await loadSileroModelInWorker(sileroModelPath());
    models.push(model);
    const input = windows(2);
    const state = new Float32Array(2 * VAD_STATE_SIZE);
    const result = await model.run(input, state, 2);
    // Moved to the worker: the caller's views are detached, not copied from.
    expect(input.length).toBe(0);
    expect(state.length).toBe(0);
    expect(result.probabilities).toHaveLength(2);
    expect(result.state).toHaveLength(2 * VAD_STATE_SIZE);
  }, 30_000);

  it('fails one bad run and answers the next', async () => {
    const model = await loadSileroModelInWorker(sileroModelPath());
    models.push(model);
    await expect(
      model.run(new Float32Array(10), new Float32Array(VAD_STATE_SIZE), 1),
    ).rejects.toThrow();
    const good = await model.run(windows(1), new Float32Array(VAD_STATE_SIZE), 1);
    expect(good.probabilities).toHaveLength(1);
  }, 30_000);

  it('starts a new worker for a run after release', async () => {
    const model = await loadSileroModelInWorker(sileroModelPath());
    models.push(model);
    await model.release();
    const result = await model.run(windows(1), new Float32Array(VAD_STATE_SIZE), 1);
    expect(result.probabilities).toHaveLength(1);
  }, 30_000);

  it('rejects a file that is not a model, with the reason', async () => {
    await expect(loadSileroModelInWorker('/nonexistent/silero.onnx')).rejects.toThrow(
      /silero\.onnx/,
    );
  }, 30_000);
});
