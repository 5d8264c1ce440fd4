/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  loadSileroModel,
  sileroModelPath,
  VAD_INPUT_SAMPLES,
  VAD_STATE_SIZE,
  type VadModel,
} from './silero-model';
import { loadSileroModelInWorker } from './silero-worker';

const SPEECH = readFileSync(
  path.join(__dirname, '../../../../test/fixtures/audio/caller-speech.ulaw'),
);

/** `batch` different windows of speech, as floats. */
function windows(batch: number): Float32Array {
  const input = new Float32Array(batch * VAD_INPUT_SAMPLES);
  for (let i = 0; i < input.length; i++) input[i] = (SPEECH[(i * 7) % SPEECH.length] - 128) / 128;
  return input;
}

describe('loadSileroModelInWorker', () => {
  const models: VadModel[] = [];
  afterAll(async () => {
    await Promise.all(models.map((model) => model.release()));
  });

  it('scores a batch exactly as the model on the main thread does, state included', async () => {
    const [inWorker, onMain] = await Promise.all([
      loadSileroModelInWorker(sileroModelPath()),
      loadSileroModel(sileroModelPath()),
    ]);
    models.push(inWorker, onMain);
    const batch = 12;
    const input = windows(batch);
    let workerState: Float32Array = new Float32Array(batch * VAD_STATE_SIZE);
    let mainState: Float32Array = workerState.slice();
    for (let run = 0; run < 3; run++) {
      const fromWorker = await inWorker.run(input, workerState, batch);
      const fromMain = await onMain.run(input, mainState, batch);
      expect(fromWorker.probabilities).toBeInstanceOf(Float32Array);
      expect(Array.from(fromWorker.probabilities)).toEqual(Array.from(fromMain.probabilities));
      expect(Array.from(fromWorker.state)).toEqual(Array.from(fromMain.state));
      workerState = fromWorker.state;
      mainState = fromMain.state;
    }
  }, 30_000);

  it('leaves the caller its buffers: they may be reused while a run is in flight', async () => {
    const model = await loadSileroModelInWorker(sileroModelPath());
    models.push(model);
    const expected = await model.run(windows(2), new Float32Array(2 * VAD_STATE_SIZE), 2);
    const input = windows(2);
    const state = new Float32Array(2 * VAD_STATE_SIZE);
    const running = model.run(input, state, 2);
    expect(input.length).toBe(2 * VAD_INPUT_SAMPLES); // not transferred away
    input.fill(0);
    state.fill(1);
    const result = await running;
    expect(Array.from(result.probabilities)).toEqual(Array.from(expected.probabilities));
  }, 30_000);

  it('fails one bad run and answers the next', async () => {
    const model = await loadSileroModelInWorker(sileroModelPath());
    models.push(model);
    const state = new Float32Array(VAD_STATE_SIZE);
    await expect(model.run(new Float32Array(10), state, 1)).rejects.toThrow();
    const good = await model.run(windows(1), state, 1);
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
