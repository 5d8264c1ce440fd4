/**
 * The dialer's internal timings and thresholds (docs/dialer.md). The operator's settings are
 * DIALER_MAX_CONCURRENT_CALLS, DIALER_CALLS_PER_SECOND and DIALER_TICK_MS (src/config).
 */

/**
 * A claimed attempt's lease, taken again when its provider request starts (the dial check).
 * Longer than the wait for a provider slot (PLACEMENT_SLOT_WAIT_MS) plus the pacing second, so
 * a claim still holds it when it is checked; and, from the request's start, longer than the
 * request can take (10 s timeout, never retried) plus the time a placed call takes to call
 * back: past it, an attempt that was sent without a provider call id coming back is ended
 * `placement_unknown`, one never sent is given back.
 */
export const PLACEMENT_LEASE_SECONDS = 60;

/**
 * How long a claim waits for one of its provider's placement slots: well under the lease. A
 * claim that gets none in time (its provider hangs) is given back without spending an attempt.
 */
export const PLACEMENT_SLOT_WAIT_MS = 15_000;

/**
 * A claim whose provider refused it in a way that proves nothing was placed (429 without
 * Retry-After, no connection) is due again this much later; a Retry-After is honoured, up to
 * NOT_PLACED_MAX_BACKOFF_SECONDS. A claim that found no provider slot waits as long.
 */
export const NOT_PLACED_BACKOFF_SECONDS = 15;
export const NOT_PLACED_MAX_BACKOFF_SECONDS = 600;

/** How long the callee's phone rings before the provider gives up (sent with placeCall). */
export const RING_TIMEOUT_SECONDS = 45;

/** Slack on a placed call's lease (ring timeout + the agent's maxCallSeconds + this). */
export const LEASE_MARGIN_SECONDS = 120;

/**
 * How often each process that runs the dialer reconciles expired leases: one recovery pass per
 * provider, each on its own timer, apart from the claim tick (one provider's slow lookups hold
 * up neither the claims nor another provider's recovery).
 */
export const RECOVERY_INTERVAL_MS = 5_000;

/**
 * A lease taken by one recovery pass while it asks the provider (so two passes never overlap):
 * longer than a lookup can take (three tries of 10 s and their waits).
 */
export const RECOVERY_LEASE_SECONDS = 60;

/** A lookup that failed (provider down, throttling, refusing our credentials) is tried again this much later. */
export const RECOVERY_RETRY_SECONDS = 30;

/** A call the provider still reports alive is checked again this much later. */
export const ALIVE_RECHECK_SECONDS = 60;

/**
 * Recovery always ends: an attempt whose provider has not told its outcome after
 * RECOVERY_MAX_LOOKUPS lookups, or RECOVERY_TIME_LIMIT_SECONDS after recovery first took it
 * (whichever comes first; the lookup at that point is its last), ends `unreconciled`: failed,
 * or completed if we saw it answered. Its capacity is freed, call.failed / call.completed is
 * raised and the batch can complete. With these values: at most about 2.5 minutes for an
 * error that never goes away (a rotated token's 401), about 4 minutes for a call the provider
 * keeps reporting alive past its own time limit (a hang-up is then asked for).
 */
export const RECOVERY_MAX_LOOKUPS = 5;
export const RECOVERY_TIME_LIMIT_SECONDS = 600;

/** Expired leases reconciled per recovery pass. */
export const RECOVERY_BATCH = 100;

/**
 * Provider lookups of a recovery pass in flight at once, per provider. One after another, 100
 * lookups of a slow provider (each up to its 10 s request timeout) held the pass for minutes.
 */
export const RECOVERY_CONCURRENCY = 8;

/** Due records read per batch and tick beyond its free capacity (DNC and window skips). */
export const CLAIM_LOOKAHEAD = 50;

/** Attempts of the last 24 hours passed to the calling window (per-state attempt caps). */
export const RECENT_ATTEMPTS_WINDOW_MS = 24 * 3600 * 1000;

/**
 * The breaker (Dograh's rule): a batch is paused with statusReason `failure_rate` when, among
 * the attempts that ended in the last BREAKER_WINDOW_SECONDS, at least BREAKER_MIN_ENDED ended
 * and at least BREAKER_FAILURE_RATIO of them `failed` (busy, no-answer and voicemail are the
 * callee's answer, not a failure of ours or the provider's, and do not count as failures).
 */
export const BREAKER_WINDOW_SECONDS = 120;
export const BREAKER_MIN_ENDED = 5;
export const BREAKER_FAILURE_RATIO = 0.5;

/** Provider requests a process's placements keep in flight at once, per provider. */
export const PLACEMENT_CONCURRENCY = 32;

/**
 * How long the scheduler's timer waits for a tick's placements before its next tick may start:
 * a provider outage (each request running into the 10 s timeout) must not hold up the claims
 * of every other batch and organization. Placements still running finish on their own; their
 * phone logs stay live, so the capacity they hold is counted until they do.
 */
export const PLACEMENT_WAIT_MS = 2_000;

/**
 * Placement-result transactions at once: a tick's placements answer together, and their writes
 * must leave the pool (10 connections) to the rest of the process.
 */
export const PLACEMENT_WRITE_CONCURRENCY = 4;

/** Placement results written in one transaction at most (CallPlacement, group commit). */
export const PLACEMENT_WRITE_BATCH = 16;

/** Tries of a placement's result write: the call exists at the provider, so losing it costs. */
export const PLACEMENT_WRITE_ATTEMPTS = 3;
