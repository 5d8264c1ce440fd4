import { Logger } from '@nestjs/common';
import { detach } from '../../../common/detach';
import { Worker } from 'node:worker_threads';
import {
  SILERO_SESSION_OPTIONS,
  VAD_INPUT_SAMPLES,
  VAD_SAMPLE_RATE,
  type VadBatchResult,
  type VadModel,
} from './silero-model';

const WORKER_LOG = new Logger('SileroWorker');

/**
 * The worker's code. onnxruntime-node runs inference synchronously on the calling thread
 * (`session.run` only defers it by a setImmediate), so on the main thread a 32-window run holds
 * every call's pacing timer for its length. Kept as source text, not a file: the server ships as
 * one bundle and the tests run TypeScript, and neither can hand a .ts file to a Worker.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ortPath);
const { modelPath, sessionOptions, sampleRate, inputSamples } = workerData;
ort.InferenceSession.create(modelPath, sessionOptions).then(
  (session) => {
    const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(sampleRate)]));
    parentPort.on('message', async (message) => {
      if (message.kind === 'release') {
        await session.release();
        parentPort.postMessage({ kind: 'released' });
        return;
      }
      const { id, input, state, batch } = message;
      try {
        const outputs = await session.run({
          input: new ort.Tensor('float32', input, [batch, inputSamples]),
          state: new ort.Tensor('float32', state, [2, batch, 128]),
          sr,
        });
        const probabilities = outputs.output.data;
        const next = outputs.stateN.data;
        const moved = [...new Set([probabilities.buffer, next.buffer])];
        parentPort.postMessage({ id, probabilities, state: next }, moved);
      } catch (error) {
        parentPort.postMessage({ id, error: String(error && error.message) });
      }
    });
    parentPort.postMessage({ kind: 'ready', inputNames: session.inputNames });
  },
  (error) => parentPort.postMessage({ kind: 'failed', error: String(error && error.message) }),
);
`;

type WorkerReply =
  | { kind: 'ready'; inputNames: string[] }
  | { kind: 'released' }
  | { kind: 'failed'; error: string }
  | { id: number; probabilities: Float32Array<ArrayBuffer>; state: Float32Array<ArrayBuffer> }
  | { id: number; error: string };

interface PendingRun {
  resolve: (result: VadBatchResult) => void;
  reject: (error: Error) => void;
}

/**
 * Silero VAD in a worker thread that owns the onnxruntime session: the event loop only hands
 * windows over and takes probabilities back (buffers moved, not copied), so a run never delays
 * the pacer or a socket read. This is the only way the model runs. Runs are answered in the
 * order they were posted; a worker that dies fails its pending runs and the next run starts a
 * new one.
 */
export async function loadSileroModelInWorker(modelPath: string): Promise<VadModel> {
  const ortPath = require.resolve('onnxruntime-node');
  let worker: Promise<Worker> | undefined;
  let nextId = 0;
  const pending = new Map<number, PendingRun>();

  const failAll = (error: Error) => {
    for (const run of pending.values()) run.reject(error);
    pending.clear();
  };

  const start = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const thread = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: {
          ortPath,
          modelPath,
          sessionOptions: SILERO_SESSION_OPTIONS,
          sampleRate: VAD_SAMPLE_RATE,
          inputSamples: VAD_INPUT_SAMPLES,
        },
      });
      // Never what keeps a process alive: the server's sockets do that, and tests release it.
      thread.unref();
      thread.on('message', (reply: WorkerReply) => {
        if ('kind' in reply) {
          if (reply.kind === 'released') return thread.emit('released');
          if (reply.kind === 'failed') return reject(new Error(reply.error));
          const missing = ['input', 'state', 'sr'].filter((n) => !reply.inputNames.includes(n));
          if (missing.length === 0) return resolve(thread);
          detach(thread.terminate(), { what: 'Stopping the VAD worker', logger: WORKER_LOG });
          return reject(new Error(`${modelPath} is not Silero v5: no input ${missing.join(', ')}`));
        }
        const run = pending.get(reply.id);
        pending.delete(reply.id);
        if (!run) return;
        if ('error' in reply) run.reject(new Error(reply.error));
        else run.resolve({ probabilities: reply.probabilities, state: reply.state });
      });
      const died = (error: Error) => {
        worker = undefined;
        reject(error);
        failAll(error);
      };
      thread.on('error', died);
      thread.on('exit', (code) => died(new Error(`voice activity worker exited (${code})`)));
    });

  worker = start();
  await worker;
  return {
    async run(input, state, batch) {
      const message = { id: nextId++, input, state, batch };
      worker ??= start();
      const thread = await worker;
      return new Promise<VadBatchResult>((resolve, reject) => {
        pending.set(message.id, { resolve, reject });
        thread.postMessage(message, [input.buffer, state.buffer]);
      });
    },
    async release() {
      const thread = await worker?.catch(() => undefined);
      worker = undefined;
      if (!thread) return;
      // The session is freed by its thread; the thread itself is then ended (onnxruntime's
      // handles would otherwise keep it alive).
      const released = new Promise((resolve) => thread.once('released', resolve));
      thread.postMessage({ kind: 'release' });
      await released;
      await thread.terminate();
    },
  };
}
