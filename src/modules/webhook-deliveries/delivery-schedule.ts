/**
 * When a failed delivery is tried again. 13 attempts in all over about 3.9 days: now, then
 * after 5 s, 30 s, 2 m, 10 m, 30 m, 1 h, 3 h, 6 h, 12 h, 24 h, 24 h, 24 h, each ±20 % jitter so
 * the retries of one outage do not arrive together.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
  24 * 3_600_000,
  24 * 3_600_000,
] as const;

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.2;
/** After a 429 or a timeout the endpoint is overloaded: wait at least this long (as Svix). */
export const OVERLOAD_MIN_DELAY_MS = 60_000;
/**
 * A `Retry-After` longer than the scheduled delay is honoured up to this cap; beyond it we keep
 * our schedule, so a receiver cannot park a delivery for days with one header. A shorter one
 * never brings a retry forward: the schedule is the minimum.
 */
export const RETRY_AFTER_CAP_MS = 3_600_000;

export interface RetryInput {
  /** The number of the attempt that just failed (1 for the first). */
  attemptNo: number;
  /** The response's `Retry-After`, already parsed to milliseconds from now. */
  retryAfterMs?: number;
  /** 429, or the attempt timed out. */
  overloaded: boolean;
  /** A number in [0, 1): Math.random in production, fixed in tests. */
  random: number;
}

/** Milliseconds until the next attempt, or undefined when attempts are exhausted. */
export function nextRetryDelayMs(input: RetryInput): number | undefined {
  if (input.attemptNo >= MAX_ATTEMPTS) return undefined;
  const scheduled = RETRY_DELAYS_MS[Math.max(0, input.attemptNo - 1)];
  let delay = Math.round(scheduled * (1 - JITTER + 2 * JITTER * input.random));
  if (input.retryAfterMs !== undefined) {
    delay = Math.max(delay, Math.min(input.retryAfterMs, RETRY_AFTER_CAP_MS));
  }
  if (input.overloaded) delay = Math.max(delay, OVERLOAD_MIN_DELAY_MS);
  return delay;
}
