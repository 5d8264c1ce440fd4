import type { DialPermit } from '../../call-records/call-records.schema';
import type { BatchWindow, Callee, WindowDecision } from './calling-window.types';
import { calleeZonesOf, type CalleeZones } from './callee-zones';
import { firstInstantFrom, intersectIntervals } from './intervals';
import { FEDERAL_END, FEDERAL_START, STATE_RULES, type StateRule } from './state-rules';
import {
  EVERY_DAY,
  wallWindowContains,
  wallWindowIntervals,
  type Interval,
  type WallWindow,
} from './wall-window';
import { DAY_MS, isValidZone, MINUTE_MS, zoneOffsets } from './zone-offsets';

/** Version of these rules, stored in every permit. */
export const CALLING_WINDOW_RULES = 'calling-window/1';

// How far nextAllowedAt looks: a full year of DST changes (a window that only opens while two
// zones' DST dates differ opens within a year), searched in growing chunks so the common case
// (open today or tomorrow) looks at two days only.
const SEARCH_CHUNKS_DAYS = [2, 7, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31];

interface Plan {
  batch: BatchWindow;
  /** null: the batch can never call (no allowed day, or a zone this runtime does not know). */
  batchWindow: WallWindow | null;
  /** null: the batch opted out of callee-local hours (and so of state rules). */
  callee: CalleeZones | null;
  stateRule: StateRule | null;
  /** One window per callee zone: the federal hours, narrowed by the state rule. */
  calleeWindows: WallWindow[];
  /** The state cap allows calls from this instant on (−∞: no cap reached). */
  capFreeFrom: number;
  attemptsLast24h: (at: number) => number;
}

/**
 * Whether a call to `callee` may be placed at `now`: inside the batch window on an allowed day
 * (batch zone) and, unless the batch opted out, inside 08:00–21:00 (earlier end by state) in
 * every zone the callee may be in, under the state's attempt cap. Pure; DST-correct.
 */
export function evaluateCallingWindow(
  batch: BatchWindow,
  callee: Callee,
  now: Date,
): WindowDecision {
  const plan = planFor(batch, callee);
  const at = now.getTime();
  const reason = refusal(plan, at);
  if (reason === null) return { allowed: true, permit: permitFor(plan, at) };
  const next = nextInstant(plan, at);
  return { allowed: false, reason, nextAllowedAt: next === null ? null : new Date(next) };
}

/** The first instant at or after `notBefore` when evaluateCallingWindow allows the call; null: never. */
export function nextAllowedAt(batch: BatchWindow, callee: Callee, notBefore: Date): Date | null {
  const next = nextInstant(planFor(batch, callee), notBefore.getTime());
  return next === null ? null : new Date(next);
}

/**
 * When the stretch of allowed time that contains `at` ends: the call must be placed before
 * then (the dialer checks it again just before dialing). Looks at most `horizonMs` ahead: a
 * window still open then answers `at + horizonMs`. Null when the call is not allowed at `at`.
 */
export function allowedUntil(
  batch: BatchWindow,
  callee: Callee,
  at: Date,
  horizonMs: number = DAY_MS,
): Date | null {
  const plan = planFor(batch, callee);
  const from = at.getTime();
  if (refusal(plan, from) !== null || plan.batchWindow === null) return null;
  const to = from + horizonMs;
  let allowed: Interval[] = wallWindowIntervals(plan.batchWindow, from, to);
  for (const window of plan.calleeWindows)
    allowed = intersectIntervals(allowed, wallWindowIntervals(window, from, to));
  let end = from;
  // Sorted and disjoint; stretches that touch (a zone's offset change) run on as one.
  for (const [start, stop] of allowed) {
    if (start > end) break;
    end = Math.max(end, stop);
  }
  return new Date(end);
}

function planFor(batch: BatchWindow, callee: Callee): Plan {
  const batchWindow = batchWallWindow(batch);
  const callee_ = batch.enforceCalleeLocalHours
    ? calleeZonesOf(callee.phoneNumber, callee.timezone, batch.trustContactTimezone === true)
    : null;
  const stateRule = callee_?.state ? (STATE_RULES[callee_.state] ?? null) : null;
  const start = Math.max(FEDERAL_START, stateRule?.start ?? FEDERAL_START);
  const end = Math.min(FEDERAL_END, stateRule?.end ?? FEDERAL_END);
  const calleeWindows = (callee_?.zones ?? []).map((zone) => ({
    zone,
    start,
    end,
    days: EVERY_DAY,
  }));
  const attempts = callee.recentAttempts.map((date) => date.getTime()).sort((a, b) => b - a);
  const cap = stateRule?.maxAttemptsPer24h ?? null;
  // At most cap − 1 earlier attempts may lie in (t − 24 h, t]: free once the cap-th latest is 24 h old.
  const capFreeFrom =
    cap !== null && attempts.length >= cap ? attempts[cap - 1] + DAY_MS : -Infinity;
  return {
    batch,
    batchWindow,
    callee: callee_,
    stateRule,
    calleeWindows,
    capFreeFrom,
    attemptsLast24h: (at) => attempts.filter((attempt) => attempt > at - DAY_MS).length,
  };
}

function batchWallWindow(batch: BatchWindow): WallWindow | null {
  const zone = batch.timezone || 'UTC';
  let days = 0;
  for (const day of batch.allowedDays)
    if (Number.isInteger(day) && day >= 0 && day <= 6) days |= 1 << day;
  if (days === 0 || !isValidZone(zone)) return null;
  const start = clockMinutes(batch.callingHourStart) ?? 0;
  let end = clockMinutes(batch.callingHourEnd) ?? 1440;
  // An end at or before the start crosses midnight (equal: 24 hours from the start).
  if (end <= start) end += 1440;
  return { zone, start, end, days };
}

function clockMinutes(value: string | null): number | null {
  if (value === null || value === '') return null;
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (!match) throw new RangeError(`calling hour "${value}" is not HH:MM`);
  return Number(match[1]) * 60 + Number(match[2]);
}

function refusal(plan: Plan, at: number): string | null {
  if (plan.batchWindow === null) return 'batch_never';
  if (!wallWindowContains(plan.batchWindow, at)) return 'batch_hours';
  if (at < plan.capFreeFrom) return 'state_cap';
  for (const window of plan.calleeWindows) {
    if (wallWindowContains(window, at)) continue;
    const federal = { ...window, start: FEDERAL_START, end: FEDERAL_END };
    return plan.stateRule && wallWindowContains(federal, at) ? 'state_hours' : 'callee_local_hours';
  }
  return null;
}

function nextInstant(plan: Plan, notBefore: number): number | null {
  if (plan.batchWindow === null) return null;
  let from = Math.max(notBefore, plan.capFreeFrom);
  for (const days of SEARCH_CHUNKS_DAYS) {
    const to = from + days * DAY_MS;
    let allowed: Interval[] = wallWindowIntervals(plan.batchWindow, from, to);
    for (const window of plan.calleeWindows) {
      if (allowed.length === 0) break;
      allowed = intersectIntervals(allowed, wallWindowIntervals(window, from, to));
    }
    const first = firstInstantFrom(allowed, from);
    if (first !== null) return first;
    from = to;
  }
  return null;
}

function permitFor(plan: Plan, at: number): DialPermit {
  const { batch, callee, stateRule } = plan;
  const window = plan.batchWindow as WallWindow;
  return {
    rules: CALLING_WINDOW_RULES,
    at: new Date(at).toISOString(),
    batch: {
      timezone: window.zone,
      window: `${clock(window.start)}-${clock(window.end)}`,
      allowedDays: [...batch.allowedDays].sort((a, b) => a - b),
      localTime: localTime(window.zone, at),
    },
    callee: callee
      ? {
          enforced: true,
          source: callee.source,
          ...(callee.areaCode ? { areaCode: callee.areaCode } : {}),
          ...(callee.country ? { country: callee.country } : {}),
          ...(callee.ignoredContactTimezone !== undefined
            ? { ignoredContactTimezone: callee.ignoredContactTimezone }
            : {}),
          window: plan.calleeWindows.length
            ? `${clock(plan.calleeWindows[0].start)}-${clock(plan.calleeWindows[0].end)}`
            : null,
          zones: callee.zones.map((zone) => ({ zone, localTime: localTime(zone, at) })),
          ...(callee.source === 'unknown'
            ? { note: 'no time zone known for this number: only the batch window was checked' }
            : {}),
        }
      : { enforced: false },
    stateRule: stateRule
      ? {
          state: stateRule.state,
          window: `${clock(stateRule.start)}-${clock(stateRule.end)}`,
          maxAttemptsPer24h: stateRule.maxAttemptsPer24h,
          attemptsLast24h: plan.attemptsLast24h(at),
          source: stateRule.source,
        }
      : null,
  };
}

function clock(minutes: number): string {
  if (minutes === 1440) return '24:00';
  const wrapped = minutes % 1440;
  const text = `${String(Math.floor(wrapped / 60)).padStart(2, '0')}:${String(wrapped % 60).padStart(2, '0')}`;
  return minutes >= 1440 ? `${text}+1d` : text;
}

/** '2026-03-09T10:00:00-04:00' (seconds kept: the permit is evidence). */
function localTime(zone: string, at: number): string {
  const offset = zoneOffsets(zone).offsetAt(at);
  const wall = new Date(at + offset * MINUTE_MS).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const absolute = Math.abs(offset);
  return `${wall}${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}
