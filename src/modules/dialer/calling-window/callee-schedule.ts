import type { DayWindow } from './day-window';
import type { HolidayCalendar } from './holidays';
import {
  CANADA,
  CANADIAN_PROVINCES,
  JURISDICTION_RULES,
  US_FEDERAL,
  type Hours,
  type JurisdictionRule,
  type WeekHours,
} from './jurisdiction-rules';

/**
 * The rules that bind a call to a callee, combined: the country's (the CRTC's for Canada, the US
 * federal hours for every other number) and those of every state or province the number may be
 * in, the strictest winning: each weekday's hours are the intersection, every rule's holidays
 * close, the lowest cap counts. A US or Canadian number whose state or province is unknown (a
 * toll-free number) may be in any: every rule of its country applies.
 */
export interface CalleeSchedule {
  country: JurisdictionRule;
  /** What the permit says of each rule (without the attempts counted). */
  permitRules: readonly PermitRule[];
  /** The country's rule first, then each region's that is stricter. */
  rules: readonly JurisdictionRule[];
  week: WeekHours;
  holidays: readonly HolidayCalendar[];
  maxAttemptsPer24h: number | null;
}

export interface PermitRule {
  jurisdiction: string;
  hours: string;
  clock?: string;
  closedOn: string | null;
  maxAttemptsPer24h: number | null;
  source: string;
}

const schedules = new Map<string, CalleeSchedule>();
// Region lists are shared per area code (callee-zones.ts): the schedule is found by reference.
const byRegions = new WeakMap<readonly string[], Map<string | undefined, CalleeSchedule>>();
const RULE_CODES = Object.keys(JURISDICTION_RULES);
const ANY_STATE = RULE_CODES.filter((code) => !CANADIAN_PROVINCES.has(code));
const ANY_PROVINCE = RULE_CODES.filter((code) => CANADIAN_PROVINCES.has(code));

export function scheduleOf(known: readonly string[], country?: string): CalleeSchedule {
  let byCountry = byRegions.get(known);
  if (!byCountry) byRegions.set(known, (byCountry = new Map<string | undefined, CalleeSchedule>()));
  let found = byCountry.get(country);
  if (!found) byCountry.set(country, (found = buildSchedule(known, country)));
  return found;
}

function buildSchedule(known: readonly string[], country?: string): CalleeSchedule {
  const canadian = country === 'CA' || known.some((region) => CANADIAN_PROVINCES.has(region));
  const unknown = known.length === 0 && (country === 'US' || country === 'CA');
  const regions = unknown ? (canadian ? ANY_PROVINCE : ANY_STATE) : known;
  const key = `${canadian ? 'CA' : 'US'}:${regions.join(',')}`;
  let schedule = schedules.get(key);
  if (!schedule) {
    const base = canadian ? CANADA : US_FEDERAL;
    const rules = [base, ...regions.flatMap((region) => JURISDICTION_RULES[region] ?? [])];
    const caps = rules.flatMap((rule) => rule.maxAttemptsPer24h ?? []);
    schedule = {
      country: base,
      permitRules: rules.map((rule) => ({
        jurisdiction: rule.code,
        hours: describeWeek(rule.week),
        ...(rule.clockZone ? { clock: rule.clockZone } : {}),
        closedOn: rule.holidays ? rule.holidays.name : null,
        maxAttemptsPer24h: rule.maxAttemptsPer24h,
        source: rule.source,
      })),
      rules,
      week: base.week.map((_, weekday) => intersect(rules.map((rule) => rule.week[weekday]))),
      holidays: [...new Set(rules.flatMap((rule) => rule.holidays ?? []))],
      maxAttemptsPer24h: caps.length ? Math.min(...caps) : null,
    };
    schedules.set(key, schedule);
  }
  return schedule;
}

function intersect(days: readonly (Hours | null)[]): Hours | null {
  let start = 0;
  let end = 1440;
  for (const hours of days) {
    if (!hours) return null;
    start = Math.max(start, hours.start);
    end = Math.min(end, hours.end);
  }
  return start < end ? { start, end } : null;
}

// Zone lists are shared per area code (callee-zones.ts), so the windows are built once for each
// schedule and list rather than per decision.
const windowsByZones = new WeakMap<readonly string[], Map<CalleeSchedule, readonly DayWindow[]>>();

/** One window per callee zone, then one per rule read on a fixed clock. */
export function windowsOf(
  schedule: CalleeSchedule,
  zones: readonly string[],
): readonly DayWindow[] {
  let bySchedule = windowsByZones.get(zones);
  if (!bySchedule)
    windowsByZones.set(zones, (bySchedule = new Map<CalleeSchedule, readonly DayWindow[]>()));
  let windows = bySchedule.get(schedule);
  if (!windows) {
    windows = [
      ...zones.map((zone) => ({ zone, week: schedule.week, holidays: schedule.holidays })),
      ...schedule.rules.flatMap((rule) =>
        rule.clockZone
          ? [{ zone: rule.clockZone, week: rule.week, holidays: [], clock: true }]
          : [],
      ),
    ];
    bySchedule.set(schedule, windows);
  }
  return windows;
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** 'every day 08:00-21:00', 'Mon-Sat 08:00-20:00, Sun closed', … (Monday first). */
export function describeWeek(week: WeekHours): string {
  const text = (hours: Hours | null): string =>
    hours ? `${clock(hours.start)}-${clock(hours.end)}` : 'closed';
  const order = [1, 2, 3, 4, 5, 6, 0];
  const groups: Array<{ first: number; last: number; text: string }> = [];
  for (const day of order) {
    const current = groups[groups.length - 1];
    if (current && current.text === text(week[day])) current.last = day;
    else groups.push({ first: day, last: day, text: text(week[day]) });
  }
  if (groups.length === 1) return `every day ${groups[0].text}`;
  return groups
    .map(({ first, last, text: hours }) =>
      first === last
        ? `${DAY_NAMES[first]} ${hours}`
        : `${DAY_NAMES[first]}-${DAY_NAMES[last]} ${hours}`,
    )
    .join(', ');
}

export function clock(minutes: number): string {
  if (minutes === 1440) return '24:00';
  const wrapped = minutes % 1440;
  const text = `${String(Math.floor(wrapped / 60)).padStart(2, '0')}:${String(wrapped % 60).padStart(2, '0')}`;
  return minutes >= 1440 ? `${text}+1d` : text;
}
