import type { DialPermit } from '../../call-records/call-records.schema';
import type { BatchWindow, Callee, WindowDecision } from './calling-window.types';
import { calleeZonesOf, type CalleeZones } from './callee-zones';
import { clock, scheduleOf, windowsOf, type CalleeSchedule } from './callee-schedule';
import {
  dayWindowContains,
  dayWindowIntervals,
  hoursOfDay,
  localDay,
  type DayWindow,
} from './day-window';
import { firstInstantFrom, intersectIntervals } from './intervals';
import {
  wallWindowContains,
  wallWindowIntervals,
  type Interval,
  type WallWindow,
} from './wall-window';
import { DAY_MS, isValidZone, MINUTE_MS, zoneOffsets } from './zone-offsets';

/** Version of these rules, stored in every permit. */
export const CALLING_WINDOW_RULES = 'calling-window/2';

// How far nextAllowedAt looks: a full year of DST changes (a window that only opens while two
// zones' DST dates differ opens within a year), searched in growing chunks so the common case
// (open today or tomorrow, or after a Sunday or a holiday weekend) looks at a few days only.
const SEARCH_CHUNKS_DAYS = [2, 7, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31];

interface Plan {
  batch: BatchWindow;
  /** null: the batch can never call (no allowed day, or a zone this runtime does not know). */
  batchWindow: WallWindow | null;
  /** null: the batch opted out of callee-local hours (and so of state and provincial rules). */
  callee: CalleeZones | null;
  /** The rules binding the callee, combined; null when opted out. */
  schedule: CalleeSchedule | null;
  /** One window per callee zone (the combined hours and holidays), then any fixed clock's. */
  calleeWindows: readonly DayWindow[];
  /** The cap allows calls from this instant on (−∞: no cap reached). */
  capFreeFrom: number;
  attemptsLast24h: (at: number) => number;
}

/**
 * Whether a call to `callee` may be placed at `now`: inside the batch window on an allowed day
 * (batch zone) and, unless the batch opted out, inside the callee's hours in every zone the
 * callee may be in — its country's (US 08:00–21:00 every day, Canada's CRTC hours) narrowed by
 * each state or province the number may be in, by weekday, their holidays closed — under the
 * lowest attempt cap. Pure; DST-correct.
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
    allowed = intersectIntervals(allowed, dayWindowIntervals(window, from, to));
  let end = from;
  // Sorted and disjoint; stretches that touch (a zone's offset change) run on as one.
  for (const [start, stop] of allowed) {
    if (start > end) break;
    end = Math.max(end, stop);
  }
  return new Date(end);
}

const NO_WINDOWS: readonly DayWindow[] = [];

function planFor(batch: BatchWindow, callee: Callee): Plan {
  const batchWindow = batchWallWindow(batch);
  const zones = batch.enforceCalleeLocalHours
    ? calleeZonesOf(callee.phoneNumber, callee.timezone, batch.trustContactTimezone === true)
    : null;
  const schedule = zones ? scheduleOf(zones.regions, zones.country) : null;
  const calleeWindows = schedule && zones ? windowsOf(schedule, zones.zones) : NO_WINDOWS;
  const cap = schedule?.maxAttemptsPer24h ?? null;
  let capFreeFrom = -Infinity;
  if (cap !== null && callee.recentAttempts.length >= cap) {
    const attempts = callee.recentAttempts.map((date) => date.getTime()).sort((a, b) => b - a);
    // At most cap − 1 earlier attempts may lie in (t − 24 h, t]: free once the cap-th latest is 24 h old.
    capFreeFrom = attempts[cap - 1] + DAY_MS;
  }
  return {
    batch,
    batchWindow,
    callee: zones,
    schedule,
    calleeWindows,
    capFreeFrom,
    attemptsLast24h: (at) =>
      callee.recentAttempts.filter((attempt) => attempt.getTime() > at - DAY_MS).length,
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

/**
 * Why a call is refused at `at`, or null. Of the callee's zones: the country's hours closed in
 * one is `callee_local_hours`; else a state's or province's hours closed (hours, a day such as
 * Sunday, a fixed clock) is `state_hours`; else only a holiday closed is `state_holiday`.
 */
function refusal(plan: Plan, at: number): string | null {
  if (plan.batchWindow === null) return 'batch_never';
  if (!wallWindowContains(plan.batchWindow, at)) return 'batch_hours';
  if (at < plan.capFreeFrom) return 'state_cap';
  let reason: string | null = null;
  for (const window of plan.calleeWindows) {
    if (dayWindowContains(window, at)) continue;
    if (window.clock || !plan.schedule) {
      reason = 'state_hours';
      continue;
    }
    const country = { zone: window.zone, week: plan.schedule.country.week, holidays: [] };
    if (!dayWindowContains(country, at)) return 'callee_local_hours';
    if (!dayWindowContains(window, at, false)) reason = 'state_hours';
    else reason ??= 'state_holiday';
  }
  return reason;
}

function nextInstant(plan: Plan, notBefore: number): number | null {
  if (plan.batchWindow === null) return null;
  let from = Math.max(notBefore, plan.capFreeFrom);
  for (const days of SEARCH_CHUNKS_DAYS) {
    const to = from + days * DAY_MS;
    let allowed: Interval[] = wallWindowIntervals(plan.batchWindow, from, to);
    for (const window of plan.calleeWindows) {
      if (allowed.length === 0) break;
      allowed = intersectIntervals(allowed, dayWindowIntervals(window, from, to));
    }
    const first = firstInstantFrom(allowed, from);
    if (first !== null) return first;
    from = to;
  }
  return null;
}

function permitFor(plan: Plan, at: number): DialPermit {
  const { batch, callee, schedule } = plan;
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
          ...(callee.regions.length ? { regions: callee.regions } : {}),
          ...(callee.ignoredContactTimezone !== undefined
            ? { ignoredContactTimezone: callee.ignoredContactTimezone }
            : {}),
          // Each zone's local time and that local day's hours (the strictest of the rules).
          zones: plan.calleeWindows.map((zoneWindow) => {
            const hours = hoursOfDay(zoneWindow, localDay(zoneWindow, at));
            return {
              zone: zoneWindow.zone,
              localTime: localTime(zoneWindow.zone, at),
              window: hours ? `${clock(hours.start)}-${clock(hours.end)}` : null,
              ...(zoneWindow.clock ? { fixedClock: true } : {}),
            };
          }),
          ...(callee.source === 'unknown'
            ? { note: 'no time zone known for this number: only the batch window was checked' }
            : {}),
        }
      : { enforced: false },
    // Every rule that applied: what it says and where it comes from.
    jurisdictionRules: (schedule?.permitRules ?? []).map((rule) =>
      rule.maxAttemptsPer24h === null
        ? rule
        : { ...rule, attemptsLast24h: plan.attemptsLast24h(at) },
    ),
  };
}

/** '2026-03-09T10:00:00-04:00' (seconds kept: the permit is evidence). */
function localTime(zone: string, at: number): string {
  const offset = zoneOffsets(zone).offsetAt(at);
  const wall = new Date(at + offset * MINUTE_MS).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const absolute = Math.abs(offset);
  return `${wall}${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}
