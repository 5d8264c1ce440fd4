/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FRAME_BYTES } from '../media/media-stream';
import { decodeUlaw } from './g711';
import { VAD_CONTEXT_SAMPLES, type VadModel } from './silero-model';
import { loadSileroModelInWorker } from './silero-worker';
import { VoiceActivityDetector } from './voice-activity-detector';

/** "Hello, I am calling about your appointment…", eSpeak NG, 8 kHz μ-law. */
const SPEECH = readFileSync(
  path.join(__dirname, '../../../../test/fixtures/audio/caller-speech.ulaw'),
);
const SILENCE = Buffer.alloc(8_000, 0xff); // 1 s

type Scored = { probability: number; atMs: number };

function pushFrames(push: (frame: Buffer) => void, audio: Buffer): void {
  for (let at = 0; at < audio.length; at += FRAME_BYTES) push(audio.subarray(at, at + FRAME_BYTES));
}

/** The real model, counting the batch size of every run. */
function countingLoader(batches: number[]) {
  return async (modelPath: string): Promise<VadModel> => {
    const model = await loadSileroModelInWorker(modelPath);
    return {
      run: (input, state, batch) => {
        batches.push(batch);
        return model.run(input, state, batch);
      },
      release: () => model.release(),
    };
  };
}

describe('VoiceActivityDetector (Silero v5)', () => {
  const detectors: VoiceActivityDetector[] = [];
  const detector = (options: ConstructorParameters<typeof VoiceActivityDetector>[0] = {}) => {
    const made = new VoiceActivityDetector(options);
    detectors.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.all(detectors.map((d) => d.onModuleDestroy()));
  });

  it('loads the model and says it is ready', async () => {
    await expect(detector().readiness()).resolves.toEqual({ ready: true });
  });

  it('says why it is not ready when the model cannot load, without throwing', async () => {
    const broken = detector({ modelPath: '/nonexistent/silero.onnx' });
    const scored: Scored[] = [];
    broken.open((probability, atMs) => scored.push({ probability, atMs })).push(SILENCE);
    const readiness = await broken.readiness();
    expect(readiness.ready).toBe(false);
    expect(readiness.reason).toMatch(/voice activity model not loaded: .*silero\.onnx/);
    await broken.settled();
    expect(scored).toEqual([]);
  });

  it('keeps the process alive when the model cannot load (no unhandled rejection)', () => {
    // Jest swallows unhandled rejections; plain Node ends the process on one, as the app would.
    const script = `
      const { VoiceActivityDetector } = require('./src/modules/voice/audio/voice-activity-detector');
      const vad = new VoiceActivityDetector({ modelPath: '/nonexistent/silero.onnx' });
      vad.open(() => undefined); // no audio yet: nothing else waits on the model
      setTimeout(() => vad.readiness().then((r) => console.log(JSON.stringify(r))), 300);`;
    const child = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: path.join(__dirname, '../../../..'),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('"ready":false');
  }, 30_000);

  it('scores speech high and silence low, one probability per 32 ms window, in order', async () => {
    const vad = detector({ maxQueuedWindows: 1_000 });
    const scored: Scored[] = [];
    const stream = vad.open((probability, atMs) => scored.push({ probability, atMs }));
    pushFrames((frame) => stream.push(frame), Buffer.concat([SILENCE, SPEECH, SILENCE]));
    await vad.settled();

    const totalMs = ((2 * SILENCE.length + SPEECH.length) / 8_000) * 1_000;
    expect(scored.length).toBeGreaterThanOrEqual(Math.floor(totalMs / 32) - 2);
    expect(scored.map((s) => s.atMs)).toEqual(scored.map((_, i) => (i + 1) * 32));
    const during = (fromMs: number, toMs: number) =>
      scored.filter((s) => s.atMs > fromMs && s.atMs <= toMs).map((s) => s.probability);
    expect(Math.max(...during(0, 900))).toBeLessThan(0.2);
    const speech = during(1_000, 1_000 + SPEECH.length / 8);
    expect(speech.filter((p) => p > 0.5).length / speech.length).toBeGreaterThan(0.5);
    expect(Math.max(...during(totalMs - 600, totalMs))).toBeLessThan(0.2);
  });

  it('batches the windows of many calls into one run, each call keeping its own state', async () => {
    const batches: number[] = [];
    const batched = detector({ maxBatch: 32, loadModel: countingLoader(batches) });
    const oneByOne = detector({ maxBatch: 1, maxQueuedWindows: 1_000 });
    await Promise.all([batched.readiness(), oneByOne.readiness()]);

    const calls = 40;
    const audioOf = (call: number) =>
      Buffer.concat([SILENCE.subarray(0, 160 * (call % 9)), SPEECH.subarray(4_000, 12_000)]);
    const batchedScores = Array.from({ length: calls }, () => [] as number[]);
    const streams = batchedScores.map((scores) => batched.open((p) => scores.push(p)));
    // Frames of all calls interleave as they would arrive, 20 ms at a time.
    for (let at = 0; at < 8_000 + 160 * 9; at += FRAME_BYTES) {
      streams.forEach((stream, call) => stream.push(audioOf(call).subarray(at, at + FRAME_BYTES)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await batched.settled();

    for (const call of [0, 5, 39]) {
      const alone: number[] = [];
      const stream = oneByOne.open((p) => alone.push(p));
      pushFrames((frame) => stream.push(frame), audioOf(call));
      await oneByOne.settled();
      expect(batchedScores[call]).toHaveLength(alone.length);
      batchedScores[call].forEach((p, i) => expect(p).toBeCloseTo(alone[i], 5));
    }
    expect(Math.max(...batches)).toBe(32);
    expect(batches.length).toBeLessThan(batchedScores.flat().length / 8);
  }, 30_000);

  it('hands the model the caller audio at its own 8 kHz: 32 context + 256 new samples', async () => {
    const inputs: Float32Array[] = [];
    const vad = detector({
      loadModel: async (modelPath) => {
        const model = await loadSileroModelInWorker(modelPath);
        return {
          run: (input, state, batch) => {
            inputs.push(input.slice());
            return model.run(input, state, batch);
          },
          release: () => model.release(),
        };
      },
    });
    const stream = vad.open(() => undefined);
    const audio = SPEECH.subarray(8_000, 8_000 + 640); // two windows and a bit
    pushFrames((frame) => stream.push(frame), audio);
    await vad.settled();
    const samples = Array.from(decodeUlaw(audio), (sample) => sample / 32_768);
    // One call: one window per run.
    expect(inputs.map((input) => Array.from(input))).toEqual([
      [...new Array<number>(VAD_CONTEXT_SAMPLES).fill(0), ...samples.slice(0, 256)],
      samples.slice(256 - VAD_CONTEXT_SAMPLES, 512),
    ]);
  });

  it('gathers the windows of calls that come within gatherMs into one run', async () => {
    const batches: number[] = [];
    const vad = detector({ gatherMs: 1_000, loadModel: countingLoader(batches) });
    await vad.readiness();
    const scored: number[] = [];
    const streams = Array.from({ length: 6 }, () => vad.open((p) => scored.push(p)));
    // One window each, in separate turns of the event loop, as separate socket reads would be.
    for (const stream of streams) {
      stream.push(SPEECH.subarray(0, 320));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await vad.settled();
    expect(batches).toEqual([6]);
    expect(scored).toHaveLength(6);
  }, 30_000);

  it('runs a full batch at once, without waiting out gatherMs', async () => {
    const batches: number[] = [];
    const vad = detector({ maxBatch: 4, gatherMs: 600_000, loadModel: countingLoader(batches) });
    await vad.readiness();
    const streams = Array.from({ length: 4 }, () => vad.open(() => undefined));
    for (const stream of streams) stream.push(SPEECH.subarray(0, 320));
    await vad.settled(); // the test's timeout, were it waiting for gatherMs
    expect(batches).toEqual([4]);
  }, 30_000);

  it('stops calling back once a stream is closed', async () => {
    const vad = detector();
    const scored: number[] = [];
    const stream = vad.open((p) => scored.push(p));
    pushFrames((frame) => stream.push(frame), SPEECH.subarray(0, 8_000));
    await vad.settled();
    const beforeClose = scored.length;
    expect(beforeClose).toBeGreaterThan(25);
    pushFrames((frame) => stream.push(frame), SPEECH.subarray(8_000, 16_000));
    stream.close();
    stream.push(SPEECH);
    await vad.settled();
    expect(scored.length).toBeLessThanOrEqual(beforeClose + 1);
  });

  it('drops the oldest windows of a call that falls too far behind', async () => {
    const vad = detector({ maxQueuedWindows: 4 });
    const scored: number[] = [];
    const stream = vad.open((p) => scored.push(p));
    stream.push(SPEECH); // ~178 windows at once, before any run
    await vad.settled();
    expect(stream.dropped).toBeGreaterThan(150);
    expect(scored.length).toBeGreaterThan(0);
    expect(scored.length).toBeLessThanOrEqual(5);
  });
});
