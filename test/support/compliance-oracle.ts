import { getCountry } from 'countries-and-timezones';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import numberZones from '../../src/modules/dialer/calling-window/data/number-zones.json';
import type { BatchWindow } from '../../src/modules/dialer/calling-window';

/**
 * An independent judge of a placed call: was it legal? Written apart from the calling-window
 * rules on purpose, so a bug there is not mirrored here:
 * - local time by brute force through Intl.DateTimeFormat (no luxon, no offset tables);
 * - windows checked on the local calendar (this local day or, for a midnight-crossing window,
 *   the previous local day), not by interval arithmetic;
 * - its own hand-written area-code lists for the state and provincial rules (NANPA assignments),
 *   which also cross-checks the generated table the rules read, and its own statement of each
 *   rule: hours by weekday, checked zone by zone rather than intersected;
 * - holidays by testing the local date against each statute's definition (nth weekday, last
 *   weekday, the day before or after a weekend date, Easter from a table), not by computing a
 *   year's calendar;
 * - the attempt cap by counting the earlier calls in the 24 hours before.
 * Only the number → zone data (libphonenumber's) is shared: it is the definition of "the zones
 * a number may be in", not logic.
 */
export interface PlacedCall {
  at: Date;
  phoneNumber: string;
  /** The contact's `timezone` field, if any. */
  contactTimezone?: string;
  batch: BatchWindow;
  /** Every earlier call placed to this number (any age). */
  previousCalls: Date[];
}

export interface Verdict {
  legal: boolean;
  violations: string[];
}

// NANPA area codes of the states with stricter rules, and of every Canadian province and
// territory (hand-written here, not generated; 902 and 782 are shared by NS and PE, 867 by the
// three territories).
const ORACLE_AREA_CODES: Record<string, string[]> = {
  AL: '205 251 256 334 659 938'.split(' '),
  CT: '203 475 860 959'.split(' '),
  FL: '239 305 321 324 352 386 407 448 561 645 656 689 727 728 754 772 786 813 850 863 904 941 954'.split(
    ' ',
  ),
  KY: '270 364 502 606 859'.split(' '),
  MA: '339 351 413 508 617 774 781 857 978'.split(' '),
  MD: '227 240 301 410 443 667'.split(' '),
  MS: '228 601 662 769'.split(' '),
  NM: '505 575'.split(' '),
  OK: '405 539 572 580 918'.split(' '),
  RI: ['401'],
  TX: '210 214 254 281 325 346 361 409 430 432 469 512 682 713 726 737 806 817 830 832 903 915 936 940 945 956 972 979'.split(
    ' ',
  ),
  UT: '385 435 801'.split(' '),
  WA: '206 253 360 425 509 564'.split(' '),
  WY: ['307'],
  AB: '368 403 587 780 825'.split(' '),
  BC: '236 250 257 604 672 778'.split(' '),
  MB: '204 431 584'.split(' '),
  NB: '428 506'.split(' '),
  NL: '709 879'.split(' '),
  NS: '782 902'.split(' '),
  PE: '782 902'.split(' '),
  ON: '226 249 289 343 365 382 416 437 519 548 613 647 683 705 742 753 807 905 942'.split(' '),
  QC: '263 354 367 418 438 450 468 514 579 581 819 873'.split(' '),
  SK: '306 474 639'.split(' '),
  NT: ['867'],
  NU: ['867'],
  YT: ['867'],
};
const CANADIAN = new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '));

/** A local calendar date with its weekday (0 = Sunday). */
export interface OracleDate {
  year: number;
  month: number;
  day: number;
  weekday: number;
}

/** [start, end) hours of the day (21.5 = 21:30), or null: no call that day. */
type OracleHours = (weekday: number) => [number, number] | null;

interface OracleRule {
  hours: OracleHours;
  holiday?: (date: OracleDate) => boolean;
  cap?: number;
  /** The hours are also read on Central Standard Time (UTC−6 all year). */
  centralStandardTime?: boolean;
}

const every =
  (start: number, end: number): OracleHours =>
  () => [start, end];
const US_HOURS = every(8, 21);
const CRTC_HOURS: OracleHours = (weekday) =>
  weekday === 0 || weekday === 6 ? [10, 18] : [9, 21.5];

const ORACLE_RULES: Record<string, OracleRule> = {
  AL: { hours: (weekday) => (weekday === 0 ? null : [8, 20]), holiday: alabamaHoliday },
  CT: { hours: every(9, 20) },
  FL: { hours: every(8, 20), cap: 3 },
  KY: { hours: every(10, 21) },
  MA: { hours: every(8, 20) },
  MD: { hours: every(8, 20), cap: 3 },
  MS: { hours: (weekday) => (weekday === 0 ? null : [8, 20]), centralStandardTime: true },
  NM: { hours: every(9, 21) },
  OK: { hours: every(8, 20), cap: 3 },
  RI: {
    hours: (weekday) => (weekday === 0 ? null : weekday === 6 ? [10, 17] : [9, 18]),
    holiday: rhodeIslandHoliday,
  },
  TX: { hours: (weekday) => (weekday === 0 ? [12, 21] : [9, 21]) },
  UT: { hours: (weekday) => (weekday === 0 ? null : [8, 21]), holiday: utahHoliday },
  WA: { hours: every(8, 20) },
  WY: { hours: every(8, 20) },
  BC: { hours: CRTC_HOURS, holiday: britishColumbiaHoliday },
};

// Easter Sunday by table (the rules compute it; this checks them).
const EASTER: Record<number, string> = {
  2020: '04-12',
  2021: '04-04',
  2022: '04-17',
  2023: '04-09',
  2024: '03-31',
  2025: '04-20',
  2026: '04-05',
  2027: '03-28',
  2028: '04-16',
  2029: '04-01',
  2030: '04-21',
  2031: '04-13',
  2032: '03-28',
  2033: '04-17',
  2034: '04-09',
  2035: '03-25',
};

/** The date `days` after (or before) `date`. */
function shifted(date: OracleDate, days: number): OracleDate {
  const at = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return {
    year: at.getUTCFullYear(),
    month: at.getUTCMonth() + 1,
    day: at.getUTCDate(),
    weekday: at.getUTCDay(),
  };
}
const is = (date: OracleDate, month: number, day: number): boolean =>
  date.month === month && date.day === day;
/** The nth weekday of a month (n = -1: the last). */
function nth(date: OracleDate, month: number, weekday: number, n: number): boolean {
  if (date.month !== month || date.weekday !== weekday) return false;
  if (n > 0) return Math.ceil(date.day / 7) === n;
  return shifted(date, 7).month !== month;
}
function easterOffset(date: OracleDate, offset: number): boolean {
  const easter = EASTER[date.year];
  if (!easter) throw new Error(`the oracle has no Easter date for ${date.year}`);
  const sunday = shifted(date, -offset);
  return (
    `${String(sunday.month).padStart(2, '0')}-${String(sunday.day).padStart(2, '0')}` === easter
  );
}
/** A fixed date, or the Friday before it (a Saturday) or the Monday after it (a Sunday). */
function federalObserved(date: OracleDate, month: number, day: number): boolean {
  return (
    is(date, month, day) ||
    (date.weekday === 5 && is(shifted(date, 1), month, day)) ||
    (date.weekday === 1 && is(shifted(date, -1), month, day))
  );
}
/** A fixed date, or the Monday after it when it is a Saturday or a Sunday. */
function mondayAfterWeekend(date: OracleDate, month: number, day: number): boolean {
  return (
    is(date, month, day) ||
    (date.weekday === 1 && (is(shifted(date, -1), month, day) || is(shifted(date, -2), month, day)))
  );
}

function federalHoliday(date: OracleDate): boolean {
  return (
    federalObserved(date, 1, 1) ||
    nth(date, 1, 1, 3) ||
    nth(date, 2, 1, 3) ||
    nth(date, 5, 1, -1) ||
    (date.year >= 2021 && federalObserved(date, 6, 19)) ||
    federalObserved(date, 7, 4) ||
    nth(date, 9, 1, 1) ||
    nth(date, 10, 1, 2) ||
    federalObserved(date, 11, 11) ||
    nth(date, 11, 4, 4) ||
    federalObserved(date, 12, 25)
  );
}

function alabamaHoliday(date: OracleDate): boolean {
  return (
    federalHoliday(date) ||
    easterOffset(date, -47) || // Mardi Gras
    nth(date, 4, 1, 4) || // Confederate Memorial Day
    nth(date, 6, 1, 1) // Jefferson Davis' birthday
  );
}

function utahHoliday(date: OracleDate): boolean {
  const juneteenthMonday =
    date.weekday === 1 &&
    ([1, 2, 3, 4].some((ahead) => is(shifted(date, ahead), 6, 19)) ||
      is(shifted(date, -1), 6, 19) ||
      is(shifted(date, -2), 6, 19));
  return (
    federalObserved(date, 1, 1) ||
    nth(date, 1, 1, 3) ||
    nth(date, 2, 1, 3) ||
    easterOffset(date, -2) ||
    nth(date, 5, 1, -1) ||
    (date.year >= 2022 && (is(date, 6, 19) || juneteenthMonday)) ||
    federalObserved(date, 7, 4) ||
    federalObserved(date, 7, 24) ||
    nth(date, 9, 1, 1) ||
    nth(date, 10, 1, 2) ||
    federalObserved(date, 11, 11) ||
    nth(date, 11, 4, 4) ||
    federalObserved(date, 12, 25)
  );
}

function rhodeIslandHoliday(date: OracleDate): boolean {
  const electionDay =
    date.year % 2 === 0 &&
    date.month === 11 &&
    date.weekday === 2 &&
    date.day >= 2 &&
    date.day <= 8;
  return (
    federalHoliday(date) ||
    mondayAfterWeekend(date, 1, 1) ||
    is(date, 5, 4) ||
    (date.weekday === 1 && is(shifted(date, -1), 5, 4)) ||
    mondayAfterWeekend(date, 7, 4) ||
    nth(date, 8, 1, 2) ||
    mondayAfterWeekend(date, 11, 11) ||
    mondayAfterWeekend(date, 12, 25) ||
    electionDay
  );
}

function britishColumbiaHoliday(date: OracleDate): boolean {
  const familyDay =
    date.year >= 2019 ? nth(date, 2, 1, 3) : date.year >= 2013 && nth(date, 2, 1, 2);
  const victoriaDay = date.month === 5 && date.weekday === 1 && date.day >= 18 && date.day <= 24;
  return (
    mondayAfterWeekend(date, 1, 1) ||
    familyDay ||
    easterOffset(date, -2) ||
    victoriaDay ||
    mondayAfterWeekend(date, 7, 1) ||
    nth(date, 8, 1, 1) ||
    nth(date, 9, 1, 1) ||
    (date.year >= 2023 && mondayAfterWeekend(date, 9, 30)) ||
    nth(date, 10, 1, 2) ||
    mondayAfterWeekend(date, 11, 11) ||
    mondayAfterWeekend(date, 12, 25)
  );
}

/** Whether the oracle's holiday list for a state or province has `date` (for its own tests). */
export function oracleHoliday(region: string, date: OracleDate): boolean {
  return ORACLE_RULES[region]?.holiday?.(date) ?? false;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Local wall clock of `at` in `zone`: the date, its weekday (0 = Sunday), minutes after midnight. */
export function oracleLocalTime(zone: string, at: Date): OracleDate & { minute: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS.indexOf(parts.weekday),
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const validity = new Map<string, boolean>();
function validZone(zone: string): boolean {
  let valid = validity.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    validity.set(zone, valid);
  }
  return valid;
}

function minutesOf(text: string | null, fallback: number): number {
  if (text === null || text === '') return fallback;
  const [hours, minutes] = text.split(':').map(Number);
  return hours * 60 + minutes;
}

/** Inside the batch window, read as: on this local day, or in the previous day's crossing part. */
export function oracleBatchAllows(batch: BatchWindow, at: Date): boolean {
  const zone = batch.timezone || 'UTC';
  const { weekday, minute } = oracleLocalTime(zone, at);
  const start = minutesOf(batch.callingHourStart, 0);
  const end = minutesOf(batch.callingHourEnd, 24 * 60);
  const today = batch.allowedDays.includes(weekday);
  const yesterday = batch.allowedDays.includes((weekday + 6) % 7);
  if (end > start) return today && minute >= start && minute < end;
  // Crossing midnight (or a full 24 h when equal): the part after midnight belongs to yesterday.
  return (today && minute >= start) || (yesterday && minute < end);
}

/** The zones the oracle believes the callee may be in ([] = none known). */
/**
 * The zones a call must fit: the contact's valid timezone when the number may be there (or its
 * zones are unknown, or the batch trusts its contacts), else every zone of the number.
 */
export function oracleZones(
  phoneNumber: string,
  contactTimezone?: string,
  trusted = false,
): string[] {
  const ofNumber = zonesOfNumber(phoneNumber);
  if (
    contactTimezone &&
    validZone(contactTimezone) &&
    (trusted || ofNumber.length === 0 || ofNumber.includes(contactTimezone))
  )
    return [contactTimezone];
  return ofNumber;
}

function zonesOfNumber(phoneNumber: string): string[] {
  const digits = phoneNumber.replace(/\D/g, '');
  const parsed = parsePhoneNumberFromString(phoneNumber);
  if (digits.startsWith('1') && digits.length === 11) {
    const areaCode = digits.slice(1, 4);
    const zones = (numberZones.nanpAreaCodes as Record<string, string[]>)[areaCode];
    if (zones) return zones.filter(validZone);
  } else if (parsed) {
    const callingCode = parsed.countryCallingCode;
    const prefixes = numberZones.prefixes as Record<string, string[]>;
    for (let length = digits.length; length > callingCode.length; length -= 1) {
      if (prefixes[digits.slice(0, length)]) return prefixes[digits.slice(0, length)];
    }
  }
  if (parsed?.country) {
    const zones = getCountry(parsed.country)?.timezones ?? [];
    if (zones.length) return zones.filter(validZone);
  }
  if (parsed && parsed.countryCallingCode !== '1') {
    return (numberZones.prefixes as Record<string, string[]>)[parsed.countryCallingCode] ?? [];
  }
  return [];
}

/**
 * The states and provinces the number may be in: by the hand-written area-code lists; none for
 * another geographic NANP area code (a state without stricter rules, or another country); every
 * one of its country's when a US or Canadian number's area code names no place (toll-free).
 */
export function oracleRegions(phoneNumber: string): string[] {
  const match = /^1(\d{3})\d{7}$/.exec(phoneNumber.replace(/\D/g, ''));
  if (match) {
    const listed = Object.keys(ORACLE_AREA_CODES).filter((region) =>
      ORACLE_AREA_CODES[region].includes(match[1]),
    );
    if (listed.length > 0) return listed;
    if ((numberZones.nanpAreaCodes as Record<string, string[]>)[match[1]]) return [];
  }
  const country = parsePhoneNumberFromString(phoneNumber)?.country;
  if (country !== 'US' && country !== 'CA') return [];
  return Object.keys(ORACLE_RULES).filter((region) => CANADIAN.has(region) === (country === 'CA'));
}

/** The lowest attempt cap of the number's states (null: none). */
export function oracleCap(phoneNumber: string): number | null {
  const caps = oracleRegions(phoneNumber).flatMap((region) => ORACLE_RULES[region]?.cap ?? []);
  return caps.length ? Math.min(...caps) : null;
}

const inHours = (hours: [number, number] | null, minute: number): boolean =>
  hours !== null && minute >= hours[0] * 60 && minute < hours[1] * 60;
const clockText = (minute: number): string =>
  `${Math.floor(minute / 60)}:${String(minute % 60).padStart(2, '0')}`;

export function judgeCall(call: PlacedCall): Verdict {
  const violations: string[] = [];
  if (!oracleBatchAllows(call.batch, call.at)) violations.push('outside batch window');
  if (call.batch.enforceCalleeLocalHours) {
    const regions = oracleRegions(call.phoneNumber);
    const canadian =
      regions.some((region) => CANADIAN.has(region)) ||
      parsePhoneNumberFromString(call.phoneNumber)?.country === 'CA';
    const trusted = call.batch.trustContactTimezone === true;
    const zones = oracleZones(call.phoneNumber, call.contactTimezone, trusted);
    for (const zone of zones) {
      const local = oracleLocalTime(zone, call.at);
      const where = `in ${zone} (${WEEKDAYS[local.weekday]} ${local.year}-${local.month}-${local.day} ${clockText(local.minute)})`;
      if (!inHours((canadian ? CRTC_HOURS : US_HOURS)(local.weekday), local.minute))
        violations.push(`outside callee hours ${where}`);
      for (const region of regions) {
        const rule = ORACLE_RULES[region];
        if (!rule) continue;
        if (!inHours(rule.hours(local.weekday), local.minute))
          violations.push(`outside ${region} hours ${where}`);
        if (rule.holiday?.(local)) violations.push(`${region} holiday ${where}`);
      }
    }
    for (const region of regions) {
      if (!ORACLE_RULES[region]?.centralStandardTime || zones.length === 0) continue;
      // Central Standard Time by arithmetic: UTC − 6 h, read as UTC.
      const cst = new Date(call.at.getTime() - 6 * 3_600_000);
      const minute = cst.getUTCHours() * 60 + cst.getUTCMinutes();
      if (!inHours(ORACLE_RULES[region].hours(cst.getUTCDay()), minute))
        violations.push(`outside ${region} hours in Central Standard Time (${clockText(minute)})`);
    }
    const cap = oracleCap(call.phoneNumber);
    if (cap !== null) {
      const since = call.at.getTime() - 24 * 3600_000;
      const earlier = call.previousCalls.filter(
        (previous) => previous.getTime() > since && previous.getTime() <= call.at.getTime(),
      ).length;
      if (earlier >= cap) violations.push(`cap ${cap}: ${earlier + 1} calls in 24 h`);
    }
  }
  return { legal: violations.length === 0, violations };
}
