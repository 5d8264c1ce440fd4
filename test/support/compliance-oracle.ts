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
 * - its own hand-written area-code lists for the state rules (NANPA assignments), which also
 *   cross-checks the generated table the rules read;
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

// NANPA area codes of the states with stricter rules (hand-written here, not generated).
const ORACLE_STATE_AREA_CODES: Record<string, string[]> = {
  FL: '239 305 321 324 352 386 407 448 561 645 656 689 727 728 754 772 786 813 850 863 904 941 954'.split(
    ' ',
  ),
  OK: '405 539 572 580 918'.split(' '),
  MD: '227 240 301 410 443 667'.split(' '),
  WA: '206 253 360 425 509 564'.split(' '),
};
const ORACLE_STATE_LIMITS: Record<string, { endHour: number; cap: number | null }> = {
  FL: { endHour: 20, cap: 3 },
  OK: { endHour: 20, cap: 3 },
  MD: { endHour: 20, cap: 3 },
  WA: { endHour: 20, cap: null },
};
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Local wall clock of `at` in `zone`: weekday (0 = Sunday) and minutes after midnight. */
export function oracleLocalTime(zone: string, at: Date): { weekday: number; minute: number } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return {
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

export function oracleState(phoneNumber: string): string | undefined {
  const match = /^1(\d{3})\d{7}$/.exec(phoneNumber.replace(/\D/g, ''));
  if (!match) return undefined;
  return Object.keys(ORACLE_STATE_AREA_CODES).find((state) =>
    ORACLE_STATE_AREA_CODES[state].includes(match[1]),
  );
}

export function judgeCall(call: PlacedCall): Verdict {
  const violations: string[] = [];
  if (!oracleBatchAllows(call.batch, call.at)) violations.push('outside batch window');
  if (call.batch.enforceCalleeLocalHours) {
    const state = oracleState(call.phoneNumber);
    const limits = state ? ORACLE_STATE_LIMITS[state] : undefined;
    const endMinute = (limits?.endHour ?? 21) * 60;
    const trusted = call.batch.trustContactTimezone === true;
    for (const zone of oracleZones(call.phoneNumber, call.contactTimezone, trusted)) {
      const { minute } = oracleLocalTime(zone, call.at);
      if (minute < 8 * 60 || minute >= endMinute) {
        violations.push(
          `outside callee hours in ${zone} (${Math.floor(minute / 60)}:${minute % 60})`,
        );
      }
    }
    if (limits?.cap) {
      const since = call.at.getTime() - 24 * 3600_000;
      const earlier = call.previousCalls.filter(
        (previous) => previous.getTime() > since && previous.getTime() <= call.at.getTime(),
      ).length;
      if (earlier >= limits.cap) violations.push(`${state} cap: ${earlier + 1} calls in 24 h`);
    }
  }
  return { legal: violations.length === 0, violations };
}
