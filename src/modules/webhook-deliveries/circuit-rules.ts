/**
 * When a webhook's circuit opens, and when a failing webhook is switched off.
 *
 * Open: within the last 5 minutes at least 10 attempts and at least 70 % of them failed (the
 * Convoy defaults). A ratio over a window rather than N consecutive failures: one slow moment
 * of a busy endpoint does not trip it, and an endpoint that is down trips within seconds at
 * volume. A quiet endpoint (fewer than 10 attempts in 5 minutes) never trips: its few
 * deliveries just follow the retry schedule, which costs little.
 * While open: deliveries are held (no attempt used), one probe goes out every 60 s; the first
 * successful probe closes the circuit and releases what was held.
 * Disable: no successful attempt for 5 days and at least 20 failed attempts since the last
 * success (Svix: 5 days; Outpost: 20 consecutive failures); the admins are e-mailed.
 */
export const CIRCUIT_WINDOW_MS = 5 * 60_000;
export const CIRCUIT_MIN_ATTEMPTS = 10;
export const CIRCUIT_FAILURE_RATIO = 0.7;
export const CIRCUIT_PROBE_INTERVAL_MS = 60_000;
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
export const DISABLE_MIN_FAILURES = 20;

const BUCKET_MS = 30_000;
const BUCKETS = CIRCUIT_WINDOW_MS / BUCKET_MS;

export interface WindowStats {
  attempts: number;
  failures: number;
}

export function shouldOpen(stats: WindowStats): boolean {
  return (
    stats.attempts >= CIRCUIT_MIN_ATTEMPTS &&
    stats.failures >= CIRCUIT_FAILURE_RATIO * stats.attempts
  );
}

export function shouldDisable(
  streak: { failures: number; firstFailureAt: Date | null },
  now: Date,
): boolean {
  return (
    streak.firstFailureAt !== null &&
    streak.failures >= DISABLE_MIN_FAILURES &&
    now.getTime() - streak.firstFailureAt.getTime() >= DISABLE_AFTER_MS
  );
}

/**
 * Attempts and failures of one webhook over the last 5 minutes, in 30-second buckets: constant
 * memory whatever the rate (the oldest bucket may cover up to 30 s beyond the window).
 */
export class FailureWindow {
  private readonly starts = new Array<number>(BUCKETS).fill(-1);
  private readonly attempts = new Array<number>(BUCKETS).fill(0);
  private readonly failures = new Array<number>(BUCKETS).fill(0);

  record(succeeded: boolean, nowMs: number): void {
    const start = nowMs - (nowMs % BUCKET_MS);
    const slot = Math.floor(start / BUCKET_MS) % BUCKETS;
    if (this.starts[slot] !== start) {
      this.starts[slot] = start;
      this.attempts[slot] = 0;
      this.failures[slot] = 0;
    }
    this.attempts[slot] += 1;
    if (!succeeded) this.failures[slot] += 1;
  }

  /** True when nothing was recorded within the window (the webhook's stats can be dropped). */
  isEmpty(nowMs: number): boolean {
    return this.starts.every((start) => start < 0 || nowMs - start >= CIRCUIT_WINDOW_MS);
  }

  stats(nowMs: number): WindowStats {
    const stats = { attempts: 0, failures: 0 };
    for (let slot = 0; slot < BUCKETS; slot++) {
      if (this.starts[slot] < 0 || nowMs - this.starts[slot] >= CIRCUIT_WINDOW_MS) continue;
      stats.attempts += this.attempts[slot];
      stats.failures += this.failures[slot];
    }
    return stats;
  }
}
