/**
 * The dialer's internal timings and thresholds (docs/dialer.md). The operator's settings are
 * DIALER_MAX_CONCURRENT_CALLS, DIALER_CALLS_PER_SECOND and DIALER_TICK_MS (src/config).
 */

/**
 * A claimed attempt's lease until placeCall answers. Longer than the provider request can take
 * (10 s timeout) plus the time a placed call takes to call back: past it, an attempt without a
 * provider call id is ended `placement_unknown`.
 */
export const PLACEMENT_LEASE_SECONDS = 60;

/** How long the callee's phone rings before the provider gives up (sent with placeCall). */
export const RING_TIMEOUT_SECONDS = 45;

/** Slack on a placed call's lease (ring timeout + the agent's maxCallSeconds + this). */
export const LEASE_MARGIN_SECONDS = 120;

/** A lease taken by one recovery pass while it asks the provider (so two passes never overlap). */
export const RECOVERY_LEASE_SECONDS = 30;

/** A call the provider still reports alive is checked again this much later. */
export const ALIVE_RECHECK_SECONDS = 60;

/** Expired leases reconciled per recovery pass. */
export const RECOVERY_BATCH = 100;

/**
 * Provider lookups of a recovery pass in flight at once. One after another, 100 lookups of a
 * slow provider (each up to its 10 s request timeout) held the scheduler's pass for minutes.
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
