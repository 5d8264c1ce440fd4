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
 * Runs work on the first engine that does it within the policy's deadline: each engine tried
 * gets one retry of a transient failure (5xx, 429 with a Retry-After that fits, a timeout, a
 * reset) when the time left allows, then the next engine takes over. An engine whose circuit is
 * open is skipped while a later one can take over. While a later engine could take over, an
 * engine has half of the time left, so the fallback always has the other half. When every
 * engine has failed or been skipped it throws one DependencyFailure, by the deadline. The caller's abort (a barge-in) ends it quietly, or with
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
    const canTakeOver = later.some((next) => next.circuit.available);
    // An open circuit is skipped only for an engine that can take the work: with none, skipping
    // would fail the turn for sure, and one blip of the only engine would fail every call for
    // the cool-down. Tried anyway, the engine's answer closes or re-opens its circuit.
    if (!circuit.take() && canTakeOver) {
      reasons.push(`${label(ref)}: circuit open`);
      moveOn();
      continue;
    }
    const now = performance.now();
    const shareEnd = canTakeOver ? now + (deadline - now) / 2 : deadline;
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
  const watch = new StepWatch(firstBy, idleMs);
  let gaveOutput = false;
  try {
    for (;;) {
      let step: IteratorResult<T>;
      try {
        step = await watch.step(iterator.next(), gaveOutput);
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
    watch.stop();
    signal?.removeEventListener('abort', abort);
    controller.abort();
    // Not awaited: a try stopped for its deadline may still be inside `next` until it sees the abort.
    iterator.return?.()?.catch(() => undefined);
  }
}

/**
 * Bounds each step of one try: the first output by `firstBy` (a performance.now() time), each
 * later one within `idleMs` of being asked for. Only the engine's time counts, never the
 * caller's between two steps. One timer serves many steps (a sentence's audio comes in dozens
 * of chunks): it is set when a step starts with none set (or one set too late), and when it
 * fires for a step that is not yet due, it is set again for the rest.
 */
class StepWatch {
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  private due: number;
  private allowedMs: number;
  private pending = false;
  private expire: ((error: Error) => void) | undefined;
  private readonly expired = new Promise<never>((_, reject) => (this.expire = reject));

  constructor(
    firstBy: number,
    private readonly idleMs: number | undefined,
  ) {
    this.due = firstBy;
    this.allowedMs = Math.max(0, firstBy - performance.now());
    // A step that settled first leaves the expiry unobserved.
    this.expired.catch(() => undefined);
  }

  async step<S>(next: Promise<S>, gaveOutput: boolean): Promise<S> {
    if (gaveOutput) {
      if (this.idleMs === undefined) return next;
      this.due = performance.now() + this.idleMs;
      this.allowedMs = this.idleMs;
    }
    this.pending = true;
    // A timer set for a later time would fire too late for this step.
    if (this.timer !== undefined && this.timerAt > this.due) this.stop();
    if (this.timer === undefined) this.arm(this.due);
    // The step may still fail once the deadline has won: that failure has nobody to tell.
    next.catch(() => undefined);
    try {
      return await Promise.race([next, this.expired]);
    } finally {
      this.pending = false;
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(at: number): void {
    this.timerAt = at;
    this.timer = setTimeout(this.check, Math.max(0, at - performance.now()));
  }

  private readonly check = (): void => {
    this.timer = undefined;
    if (!this.pending) return;
    if (this.due > performance.now()) this.arm(this.due);
    else this.expire?.(new DeadlinePassed(this.allowedMs));
  };
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
