/**
 * The public holidays on which a jurisdiction's calling rules forbid calls, as pure date
 * arithmetic: fixed dates, nth weekdays, Easter-based days, and the statutes' observed-date
 * shifts. A day is a local calendar day numbered from 1970-01-01 (day 0), as in wall-window.ts.
 *
 * Where a statute moves a holiday that falls on a weekend (5 U.S.C. § 6103(b): Sunday to Monday;
 * Executive Order 11582: Saturday to Friday), both the date itself and the day it moves to are
 * holidays here: a caller cannot know which one a court would count, so the stricter reading of
 * each is kept. Days proclaimed ad hoc (a governor's day of thanksgiving) cannot be computed and
 * are not included; docs/dialer.md says so.
 */
export type HolidayCalendarId = 'US' | 'AL' | 'UT' | 'RI' | 'BC';

type DateRule =
  | { kind: 'fixed'; month: number; day: number }
  /** The nth `weekday` (0 = Sunday) of `month`; n = -1: the last. `plus` days after it. */
  | { kind: 'nth'; month: number; weekday: number; n: number; plus?: number }
  /** Easter Sunday plus `offset` days (Good Friday −2, Mardi Gras −47). */
  | { kind: 'easter'; offset: number }
  /** The last Monday before month/day (Victoria Day: the Monday preceding May 25). */
  | { kind: 'mondayBefore'; month: number; day: number };

/**
 * Where a weekend holiday also falls:
 * - federal: Saturday → the Friday before, Sunday → the Monday after (5 U.S.C. § 6103(b), E.O. 11582);
 * - sundayToMonday: Sunday → Monday;
 * - weekendToMonday: Saturday or Sunday → the Monday after;
 * - utahJuneteenth: Tuesday–Friday → the Monday before, Saturday or Sunday → the Monday after
 *   (Utah Code § 63G-1-301(2)(c)–(d)).
 */
type Observance = 'federal' | 'sundayToMonday' | 'weekendToMonday' | 'utahJuneteenth';

interface HolidayRule {
  name: string;
  date: DateRule;
  observed?: Observance;
  /** First and last year the holiday exists in this form. */
  from?: number;
  until?: number;
  /** Only in even years (election days). */
  evenYears?: boolean;
}

export interface HolidayCalendar {
  id: HolidayCalendarId;
  name: string;
  source: string;
  holidays: readonly HolidayRule[];
}

const MONDAY = 1;
const THURSDAY = 4;
const fixed = (month: number, day: number): DateRule => ({ kind: 'fixed', month, day });
const nth = (month: number, weekday: number, n: number, plus = 0): DateRule => ({
  kind: 'nth',
  month,
  weekday,
  n,
  plus,
});
const easter = (offset: number): DateRule => ({ kind: 'easter', offset });

const US_FEDERAL: readonly HolidayRule[] = [
  { name: "New Year's Day", date: fixed(1, 1), observed: 'federal' },
  { name: 'Birthday of Martin Luther King, Jr.', date: nth(1, MONDAY, 3) },
  { name: "Washington's Birthday", date: nth(2, MONDAY, 3) },
  { name: 'Memorial Day', date: nth(5, MONDAY, -1) },
  {
    name: 'Juneteenth National Independence Day',
    date: fixed(6, 19),
    observed: 'federal',
    from: 2021,
  },
  { name: 'Independence Day', date: fixed(7, 4), observed: 'federal' },
  { name: 'Labor Day', date: nth(9, MONDAY, 1) },
  { name: 'Columbus Day', date: nth(10, MONDAY, 2) },
  { name: 'Veterans Day', date: fixed(11, 11), observed: 'federal' },
  { name: 'Thanksgiving Day', date: nth(11, THURSDAY, 4) },
  { name: 'Christmas Day', date: fixed(12, 25), observed: 'federal' },
];

export const HOLIDAY_CALENDARS: Readonly<Record<HolidayCalendarId, HolidayCalendar>> = {
  US: {
    id: 'US',
    name: 'US federal legal public holidays',
    source: '5 U.S.C. § 6103(a)–(b); Executive Order 11582',
    holidays: US_FEDERAL,
  },
  AL: {
    id: 'AL',
    name: 'Alabama state holidays and US federal holidays',
    // The PSC rule says "holidays" without naming a list: both lists are kept.
    source: 'Ala. Code § 1-3-8; 5 U.S.C. § 6103',
    holidays: [
      ...US_FEDERAL,
      // § 1-3-8 makes it a holiday in Baldwin and Mobile counties only; a number's county is
      // unknown, so it is kept statewide.
      { name: 'Mardi Gras', date: easter(-47) },
      { name: 'Confederate Memorial Day', date: nth(4, MONDAY, 4) },
      { name: "Jefferson Davis' birthday", date: nth(6, MONDAY, 1) },
    ],
  },
  UT: {
    id: 'UT',
    name: 'Utah legal holidays',
    source: 'Utah Code § 63G-1-301',
    holidays: [
      { name: "New Year's Day", date: fixed(1, 1), observed: 'federal' },
      { name: 'Dr. Martin Luther King, Jr. Day', date: nth(1, MONDAY, 3) },
      { name: 'Washington and Lincoln Day', date: nth(2, MONDAY, 3) },
      // Added by the 2026 text; kept for every year (the stricter reading).
      { name: 'Good Friday', date: easter(-2) },
      { name: 'Memorial Day', date: nth(5, MONDAY, -1) },
      {
        name: 'Juneteenth National Freedom Day',
        date: fixed(6, 19),
        observed: 'utahJuneteenth',
        from: 2022,
      },
      { name: 'Independence Day', date: fixed(7, 4), observed: 'federal' },
      { name: 'Pioneer Day', date: fixed(7, 24), observed: 'federal' },
      { name: 'Labor Day', date: nth(9, MONDAY, 1) },
      { name: 'Columbus Day', date: nth(10, MONDAY, 2) },
      { name: 'Veterans Day', date: fixed(11, 11), observed: 'federal' },
      { name: 'Thanksgiving Day', date: nth(11, THURSDAY, 4) },
      { name: 'Christmas', date: fixed(12, 25), observed: 'federal' },
    ],
  },
  RI: {
    id: 'RI',
    name: 'Rhode Island state holidays and US federal holidays',
    source: 'R.I. Gen. Laws § 25-1-1; 5 U.S.C. § 6103',
    holidays: [
      ...US_FEDERAL,
      { name: "New Year's Day", date: fixed(1, 1), observed: 'weekendToMonday' },
      { name: 'Rhode Island Independence Day', date: fixed(5, 4), observed: 'sundayToMonday' },
      { name: 'Independence Day', date: fixed(7, 4), observed: 'weekendToMonday' },
      { name: 'Victory Day', date: nth(8, MONDAY, 2) },
      { name: "Veterans' Day", date: fixed(11, 11), observed: 'weekendToMonday' },
      { name: 'Christmas Day', date: fixed(12, 25), observed: 'weekendToMonday' },
      // "the Tuesday next after the first Monday in November in each year in which a general
      // election of state officers is held".
      { name: 'Election Day', date: nth(11, MONDAY, 1, 1), evenYears: true },
    ],
  },
  BC: {
    id: 'BC',
    name: 'British Columbia statutory holidays',
    // The fixed-date ones also close the Monday after a weekend date (the day observed).
    source: 'Employment Standards Act, R.S.B.C. 1996, c. 113, s. 1 ("statutory holiday")',
    holidays: [
      { name: "New Year's Day", date: fixed(1, 1), observed: 'weekendToMonday' },
      { name: 'Family Day', date: nth(2, MONDAY, 2), from: 2013, until: 2018 },
      { name: 'Family Day', date: nth(2, MONDAY, 3), from: 2019 },
      { name: 'Good Friday', date: easter(-2) },
      { name: 'Victoria Day', date: { kind: 'mondayBefore', month: 5, day: 25 } },
      { name: 'Canada Day', date: fixed(7, 1), observed: 'weekendToMonday' },
      { name: 'British Columbia Day', date: nth(8, MONDAY, 1) },
      { name: 'Labour Day', date: nth(9, MONDAY, 1) },
      {
        name: 'National Day for Truth and Reconciliation',
        date: fixed(9, 30),
        observed: 'weekendToMonday',
        from: 2023,
      },
      { name: 'Thanksgiving Day', date: nth(10, MONDAY, 2) },
      { name: 'Remembrance Day', date: fixed(11, 11), observed: 'weekendToMonday' },
      { name: 'Christmas Day', date: fixed(12, 25), observed: 'weekendToMonday' },
    ],
  },
};

/** Day number of a civil date (proleptic Gregorian; H. Hinnant's days_from_civil). */
export function dayOfDate(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The civil year of a day number (the inverse of dayOfDate, year only). */
export function yearOfDay(dayNumber: number): number {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  return yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0);
}

/** 0 = Sunday (1970-01-01 was a Thursday). */
function weekdayOf(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

/** Easter Sunday (Gregorian), by the anonymous algorithm (Meeus, Jones, Butcher). */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayOfDate(year, month, day);
}

function dateOf(rule: DateRule, year: number): number {
  switch (rule.kind) {
    case 'fixed':
      return dayOfDate(year, rule.month, rule.day);
    case 'easter':
      return easterSunday(year) + rule.offset;
    case 'mondayBefore': {
      const before = dayOfDate(year, rule.month, rule.day) - 1;
      return before - ((weekdayOf(before) - MONDAY + 7) % 7);
    }
    case 'nth': {
      const plus = rule.plus ?? 0;
      if (rule.n > 0) {
        const first = dayOfDate(year, rule.month, 1);
        return first + ((rule.weekday - weekdayOf(first) + 7) % 7) + (rule.n - 1) * 7 + plus;
      }
      const last = dayOfDate(year, rule.month + 1, 1) - 1;
      return last - ((weekdayOf(last) - rule.weekday + 7) % 7) + plus;
    }
  }
}

/** The date and, when it falls on a weekend (or Juneteenth in Utah), the day it moves to. */
function datesOf(rule: HolidayRule, year: number): number[] {
  const date = dateOf(rule.date, year);
  const weekday = weekdayOf(date);
  switch (rule.observed) {
    case 'federal':
      return weekday === 6 ? [date, date - 1] : weekday === 0 ? [date, date + 1] : [date];
    case 'sundayToMonday':
      return weekday === 0 ? [date, date + 1] : [date];
    case 'weekendToMonday':
      return weekday === 6 ? [date, date + 2] : weekday === 0 ? [date, date + 1] : [date];
    case 'utahJuneteenth':
      if (weekday === 1) return [date];
      return weekday === 6
        ? [date, date + 2]
        : weekday === 0
          ? [date, date + 1]
          : [date, date - (weekday - 1)];
    case undefined:
      return [date];
  }
}

/** Each holiday of the years around `year` (a shift can cross a year's edge: 1 January on a
 * Saturday is also 31 December before), as its name and days: the date first, then any shift. */
function* around(calendar: HolidayCalendar, year: number): Generator<[string, number[]]> {
  for (const from of [year - 1, year, year + 1]) {
    for (const rule of calendar.holidays) {
      if (rule.from !== undefined && from < rule.from) continue;
      if (rule.until !== undefined && from > rule.until) continue;
      if (rule.evenYears && from % 2 !== 0) continue;
      yield [rule.name, datesOf(rule, from)];
    }
  }
}

const byYear = new Map<HolidayCalendar, Map<number, ReadonlySet<number>>>();

/** Every holiday day number of `year` in the calendar, shifts included (cached per year). */
export function holidayDaysOf(calendar: HolidayCalendar, year: number): ReadonlySet<number> {
  let years = byYear.get(calendar);
  if (!years) byYear.set(calendar, (years = new Map<number, ReadonlySet<number>>()));
  let days = years.get(year);
  if (!days) {
    const first = dayOfDate(year, 1, 1);
    const last = dayOfDate(year + 1, 1, 1);
    const found = new Set<number>();
    for (const [, dates] of around(calendar, year))
      for (const day of dates) if (day >= first && day < last) found.add(day);
    days = found;
    years.set(year, days);
  }
  return days;
}

export function isHoliday(calendar: HolidayCalendar, dayNumber: number): boolean {
  return holidayDaysOf(calendar, yearOfDay(dayNumber)).has(dayNumber);
}

/** The holidays on a day ("… (observed)" for a shifted one), for messages and tests. */
export function holidayNamesOn(calendar: HolidayCalendar, dayNumber: number): string[] {
  const names = new Set<string>();
  for (const [name, [date, ...moved]] of around(calendar, yearOfDay(dayNumber))) {
    if (date === dayNumber) names.add(name);
    else if (moved.includes(dayNumber)) names.add(`${name} (observed)`);
  }
  return [...names];
}
