import type { EngineCircuit } from '../../../common/failover/engine-circuit';
import type { EngineRef } from '../../../common/failover/engine-events';

/** A configured engine (primary or fallback) with its circuit breaker. */
export interface EngineSlot<T> {
  ref: EngineRef;
  engine: T;
  circuit: EngineCircuit;
}
