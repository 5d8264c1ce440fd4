import { percentile } from '../../common/percentile';
import type { PhoneLogTurn } from './call-records.schema';

/** A call's reply latency: the median and 95th percentile over its answered turns. */
export interface CallTurnLatency {
  turns: number;
  p50Ms: number;
  p95Ms: number;
}

/** Over the agent turns that answered a caller (those that carry a latency); null when none did. */
export function callTurnLatency(turns: readonly PhoneLogTurn[]): CallTurnLatency | null {
  const totals = turns.flatMap((turn) => (turn.latency ? [turn.latency.totalMs] : []));
  if (totals.length === 0) return null;
  return {
    turns: totals.length,
    p50Ms: percentile(totals, 0.5),
    p95Ms: percentile(totals, 0.95),
  };
}
