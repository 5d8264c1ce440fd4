/** An attempt over the cap waits in the worker at most this long for a slot, then is deferred. */
export const MAX_LOCAL_WAIT_MS = 1_000;
/** A deferred attempt comes back no sooner than this... */
export const MIN_DEFER_MS = 250;
/** ...and no later than this. */
export const MAX_DEFER_MS = 60_000;
/** Until an endpoint has answered, an attempt is assumed to take this long. */
const INITIAL_ATTEMPT_MS = 100;
/** Weight of the newest attempt in the running average of an endpoint's attempt time. */
const EWMA_WEIGHT = 0.2;

interface Waiter {
  grant: (granted: boolean) => void;
  /** Performance.now() after which it stops waiting and is deferred. */
  deadline: number;
}

/** How often waiters past their deadline are let go (one timer for all, not one each). */
const EXPIRY_CHECK_MS = 100;

interface EndpointState {
  inFlight: number;
  /** Running average of the endpoint's attempt time, ms. */
  attemptMs: number;
  /** Attempts waiting here for a slot, first come first served. */
  waiters: Waiter[];
  /** When the last deferred attempt was told to come back (a virtual queue behind the slots). */
  deferredUntil: number;
}

/**
 * Keeps one slow endpoint from taking every delivery slot of a worker: at most `maxInFlight`
 * attempts per webhook run at once. An attempt over the cap waits here only when a slot should
 * free up within MAX_LOCAL_WAIT_MS at the endpoint's pace (a fast endpoint with a backlog keeps
 * the worker busy); otherwise, or once it has waited that long, it is deferred, and the
 * deferrals of an endpoint are spaced by its pace so they come back about when a slot frees up.
 * Per process; the state of an idle endpoint is dropped.
 */
export class EndpointLimiter {
  private readonly endpoints = new Map<string, EndpointState>();
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly maxInFlight: number) {}

  /** Resolves true with a slot for the webhook, or false: defer the attempt (deferMs). */
  acquire(webhookId: string): Promise<boolean> | boolean {
    let state = this.endpoints.get(webhookId);
    if (!state) {
      state = { inFlight: 0, attemptMs: INITIAL_ATTEMPT_MS, waiters: [], deferredUntil: 0 };
      this.endpoints.set(webhookId, state);
    }
    if (state.inFlight < this.maxInFlight) {
      state.inFlight += 1;
      return true;
    }
    const expectedWaitMs = (state.attemptMs * (state.waiters.length + 1)) / this.maxInFlight;
    if (expectedWaitMs > MAX_LOCAL_WAIT_MS) return false;
    const waiters = state.waiters;
    return new Promise<boolean>((resolve) => {
      waiters.push({ grant: resolve, deadline: performance.now() + MAX_LOCAL_WAIT_MS });
      this.expiryTimer ??= setInterval(() => this.expireWaiters(), EXPIRY_CHECK_MS);
    });
  }

  /** Gives the slot back (to the next waiter, if any) after an attempt of `attemptMs`. */
  release(webhookId: string, attemptMs: number, nowMs: number): void {
    const state = this.endpoints.get(webhookId);
    if (!state) return;
    state.attemptMs += EWMA_WEIGHT * (attemptMs - state.attemptMs);
    const next = state.waiters.shift();
    if (next) {
      next.grant(true);
      return;
    }
    state.inFlight -= 1;
    if (state.inFlight <= 0 && state.deferredUntil <= nowMs) this.endpoints.delete(webhookId);
  }

  /** How long to defer an attempt that got no slot (jitter in [0, 1) spreads them ±10 %). */
  deferMs(webhookId: string, nowMs: number, jitter: number): number {
    const state = this.endpoints.get(webhookId);
    const slotMs = (state?.attemptMs ?? INITIAL_ATTEMPT_MS) / this.maxInFlight;
    const until = Math.min(
      nowMs + MAX_DEFER_MS,
      Math.max(nowMs, state?.deferredUntil ?? 0) + slotMs,
    );
    if (state) state.deferredUntil = until;
    const spread = 0.9 + 0.2 * jitter;
    return Math.round(Math.min(MAX_DEFER_MS, Math.max(MIN_DEFER_MS, (until - nowMs) * spread)));
  }

  /** Lets go of the waiters past their deadline (the oldest wait first in each queue). */
  private expireWaiters(): void {
    const now = performance.now();
    let waiting = 0;
    for (const state of this.endpoints.values()) {
      let expired = 0;
      while (expired < state.waiters.length && state.waiters[expired].deadline <= now) {
        expired += 1;
      }
      if (expired > 0) {
        // No slot freed for that long: the endpoint is far slower than its average says.
        // Presume it too slow to wait for until its next answers pull the average back.
        state.attemptMs = Math.max(state.attemptMs, 2 * MAX_LOCAL_WAIT_MS * this.maxInFlight);
        for (const waiter of state.waiters.splice(0, expired)) waiter.grant(false);
      }
      waiting += state.waiters.length;
    }
    if (waiting === 0) {
      clearInterval(this.expiryTimer);
      this.expiryTimer = undefined;
    }
  }
}
