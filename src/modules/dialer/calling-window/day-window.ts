import { isHoliday, type HolidayCalendar } from './holidays';
import type { Hours, WeekHours } from './jurisdiction-rules';
import { appendInterval, weekdayOfDay, type Interval } from './wall-window';
import { DAY_MS, MINUTE_MS, zoneOffsets } from './zone-offsets';

/**
 * A callee's calling hours on the wall clock of one zone: hours by weekday, none on the
 * calendars' holidays. Read as a set of wall-clock times, like a WallWindow (exact across DST);
 * the hours of a day never cross midnight.
 */
export interface DayWindow {
  zone: string;
  week: WeekHours;
  holidays: readonly HolidayCalendar[];
  /** A rule's fixed clock (Mississippi's Central Standard Time), not a zone the callee is in. */
  clock?: boolean;
}

/** The hours of a local day (days since 1970-01-01), or null when no call is allowed that day. */
export function hoursOfDay(window: DayWindow, day: number): Hours | null {
  const hours = window.week[weekdayOfDay(day)];
  if (!hours) return null;
  for (const calendar of window.holidays) if (isHoliday(calendar, day)) return null;
  return hours;
}

/** Whether `at` is inside the window; `withHolidays` false: by the weekday hours alone. */
export function dayWindowContains(window: DayWindow, at: number, withHolidays = true): boolean {
  const wall = at + zoneOffsets(window.zone).offsetAt(at) * MINUTE_MS;
  const day = Math.floor(wall / DAY_MS);
  const minute = (wall - day * DAY_MS) / MINUTE_MS;
  const hours = withHolidays ? hoursOfDay(window, day) : window.week[weekdayOfDay(day)];
  return hours !== null && minute >= hours.start && minute < hours.end;
}

/** The instants of [from, to) inside the window, as sorted, disjoint, non-touching intervals. */
export function dayWindowIntervals(window: DayWindow, from: number, to: number): Interval[] {
  const out: Interval[] = [];
  for (const segment of zoneOffsets(window.zone).segments(from, to)) {
    const shift = segment.offset * MINUTE_MS;
    const wallFrom = segment.start + shift;
    const wallTo = segment.end + shift;
    for (let day = Math.floor(wallFrom / DAY_MS); day * DAY_MS < wallTo; day += 1) {
      const hours = hoursOfDay(window, day);
      if (!hours) continue;
      const start = Math.max(day * DAY_MS + hours.start * MINUTE_MS, wallFrom);
      const end = Math.min(day * DAY_MS + hours.end * MINUTE_MS, wallTo);
      if (start < end) appendInterval(out, [start - shift, end - shift]);
    }
  }
  return out;
}

/** The local day of `at` in the window's zone (days since 1970-01-01). */
export function localDay(window: DayWindow, at: number): number {
  return Math.floor((at + zoneOffsets(window.zone).offsetAt(at) * MINUTE_MS) / DAY_MS);
}
