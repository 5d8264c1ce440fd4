import { DependencyFailure } from '../dependency-failure';
import type { EngineCircuit } from './engine-circuit';
import { DeadlinePassed, describeFailure, transience } from './engine-errors';
import type { EngineDependency, EngineEvents, EngineRef } from './engine-events';

/** One engine the failover may give the work to, in order: the primary, then its fallback. */
export interface FailoverEngine<T> {
  ref: EngineRef;
  circuit: EngineCircuit;
  /**
   * One try of the work, yielding its output as it comes. Aborting `signal` (the try's time is
   * up, or the caller gave the work up) must end it soon, quietly or with an error.
   */
  run(signal: AbortSignal): AsyncIterable<T>;
}

export interface FailoverPolicy {
  dependency: EngineDependency;
  /** By when the first output must have come, every retry and fallback included. */
  deadlineMs: number;
  /** The longest wait for each later output (a stalled stream); undefined: no bound. */
  idleMs?: number;
  /**
   * What a failure after output was already given does: `fallback` starts the work again on the
   * next engine (with a fresh deadline), `fail` gives up at once (the caller has used the output).
   */
  afterOutput: 'fallback' | 'fail';
  events: EngineEvents;
}

/** A retry is only worth it when at least this share of the deadline is left for it. */
const MIN_RETRY_SHARE = 0.25;
/** The pause before a retry the service did not time (a reset, a 5xx without Retry-After). */
const RETRY_PAUSE_MS = 50;

const NAMES: Record<EngineDependency, string> = {
  stt: 'speech recognition',
  tts: 'speech synthesis',
  llm: 'chat model',
};

type Outcome =
  | { kind: 'done' }
  | { kind: 'aborted'; error?: unknown }
  | { kind: 'failed'; error: unknown; gaveOutput: boolean };

/**
 * Runs work on the first engine that does it within the policy's deadline: each engine whose
 * circuit lets it try gets one retry of a transient failure (5xx, 429 with a Retry-After that
 * fits, a timeout, a reset) when the time left allows, then the next engine takes over. While a
 * later engine could take over, an engine has half of the time left, so the fallback always has
 * the other half. When every engine has failed, or had its circuit open, it throws one
 * DependencyFailure, by the deadline. The caller's abort (a barge-in) ends it quietly, or with
 * the engine's own error when the engine throws one, and counts as no failure.
 */
export async function* failover<T>(
  engines: readonly FailoverEngine<T>[],
  policy: FailoverPolicy,
  signal?: AbortSignal,
): AsyncGenerator<T> {
  const reasons: string[] = [];
  let cause: unknown;
  let deadline = performance.now() + policy.deadlineMs;
  for (const [index, engine] of engines.entries()) {
    const { ref, circuit } = engine;
    const later = engines.slice(index + 1);
    const moveOn = () => {
      if (later.length > 0) policy.events.fallback(ref);
    };
    if (!circuit.take()) {
      reasons.push(`${label(ref)}: circuit open`);
      moveOn();
      continue;
    }
    const now = performance.now();
    const shareEnd = later.some((next) => next.circuit.available)
      ? now + (deadline - now) / 2
      : deadline;
    for (let retried = false; ; retried = true) {
      const outcome = yield* attempt(engine, shareEnd, policy.idleMs, signal);
      if (outcome.kind === 'done') {
        circuit.succeeded();
        return;
      }
      if (outcome.kind === 'aborted') {
        circuit.released();
        // The engine's own answer to the caller's abort (the caller's reason, for the chat model).
        if (outcome.error !== undefined) throw outcome.error as Error;
        return;
      }
      const { error, gaveOutput } = outcome;
      policy.events.failure(ref);
      cause = error;
      if (gaveOutput) {
        circuit.failed();
        reasons.push(`${label(ref)}: ${describeFailure(error)} mid-stream`);
        if (policy.afterOutput === 'fail') return giveUp(policy, reasons, cause);
        deadline = performance.now() + policy.deadlineMs;
        moveOn();
        break;
      }
      const { transient, retryAfterMs } = transience(error);
      const pause = retryAfterMs ?? RETRY_PAUSE_MS;
      const leftAfterPause = shareEnd - performance.now() - pause;
      if (!retried && transient && leftAfterPause >= policy.deadlineMs * MIN_RETRY_SHARE) {
        policy.events.retry(ref);
        if (!(await pauseUnlessAborted(pause, signal))) {
          circuit.released();
          return;
        }
        continue;
      }
      circuit.failed();
      reasons.push(`${label(ref)}: ${describeFailure(error)}`);
      moveOn();
      break;
    }
  }
  giveUp(policy, reasons, cause);
}

/** One try on one engine: its output is passed on as it comes, each piece within its bound. */
async function* attempt<T>(
  engine: FailoverEngine<T>,
  firstBy: number,
  idleMs: number | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<T, Outcome> {
  if (signal?.aborted) return { kind: 'aborted' };
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort, { once: true });
  const iterator = engine.run(controller.signal)[Symbol.asyncIterator]();
  let gaveOutput = false;
  try {
    for (;;) {
      let step: IteratorResult<T>;
      try {
        const by = gaveOutput
          ? idleMs === undefined
            ? undefined
            : performance.now() + idleMs
          : firstBy;
        step = await within(iterator.next(), by);
      } catch (error) {
        if (signal?.aborted) return { kind: 'aborted', error };
        return { kind: 'failed', error, gaveOutput };
      }
      if (signal?.aborted) return { kind: 'aborted' };
      if (step.done) return { kind: 'done' };
      if (!gaveOutput) engine.circuit.succeeded();
      gaveOutput = true;
      yield step.value;
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    controller.abort();
    // Not awaited: a try stopped for its deadline may still be inside `next` until it sees the abort.
    iterator.return?.()?.catch(() => undefined);
  }
}

/** The step, or DeadlinePassed once `by` (performance.now() time) has come first. */
function within<T>(step: Promise<T>, by: number | undefined): Promise<T> {
  if (by === undefined) return step;
  const ms = Math.max(0, by - performance.now());
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlinePassed(ms)), ms);
  });
  // The step may still fail after the deadline won: that failure has nobody to tell.
  step.catch(() => undefined);
  return Promise.race([step, late]).finally(() => clearTimeout(timer));
}

/** Waits `ms` unless the caller aborts first; true when the wait ran its course. */
function pauseUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (completed: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(completed);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function giveUp(policy: FailoverPolicy, reasons: string[], cause: unknown): never {
  policy.events.exhausted(policy.dependency);
  throw new DependencyFailure(
    policy.dependency,
    `${NAMES[policy.dependency]} failed: ${reasons.join('; ')}`,
    { cause },
  );
}

const label = (ref: EngineRef): string => `${ref.engine} (${ref.role})`;

/** A promise's value as an iteration of one item, for work that answers once. */
export async function* once<T>(work: () => Promise<T>): AsyncGenerator<T> {
  yield await work();
}
