import type { CallDependency } from '../dependency-failure';
import type { EngineState } from './engine-circuit';

/** The dependencies whose engines retry and fall back: speech both ways and the chat model. */
export type EngineDependency = Extract<CallDependency, 'stt' | 'tts' | 'llm'>;

/** One engine of a dependency: the configured one or its fallback, and which engine it is. */
export interface EngineRef {
  dependency: EngineDependency;
  role: 'primary' | 'fallback';
  /** The provider (`deepgram`, `offline`, ...); `openai-compatible` for chat models. */
  engine: string;
}

/** What the failover reports, for /metrics (SwitchboardMetrics) and the logs. */
export interface EngineEvents {
  /** The engine's state changed (also said once for each engine when it is set up). */
  state(ref: EngineRef, state: EngineState): void;
  /** One try of the engine failed (a timeout, an error, a cut stream). */
  failure(ref: EngineRef): void;
  /** A failed try is tried again on the same engine. */
  retry(ref: EngineRef): void;
  /** Work the engine failed, or skipped with its circuit open, goes to the next engine. */
  fallback(ref: EngineRef): void;
  /** Every engine of the dependency failed: the caller gets a DependencyFailure. */
  exhausted(dependency: EngineDependency): void;
}

export const NO_ENGINE_EVENTS: EngineEvents = {
  state: () => undefined,
  failure: () => undefined,
  retry: () => undefined,
  fallback: () => undefined,
  exhausted: () => undefined,
};
