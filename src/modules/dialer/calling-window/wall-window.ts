import { DAY_MS, MINUTE_MS, zoneOffsets } from './zone-offsets';

/**
 * A daily window read on the wall clock of one zone: an instant is inside when its local time is
 * in [start, end) on a day whose weekday is allowed. `end` may pass 1440 (24:00): the window then
 * crosses midnight and belongs to the day it STARTS on (its weekday is the one checked).
 *
 * Read as a set of wall-clock times this is exact across DST: in a spring-forward gap the window
 * opens at the first instant whose local time is past `start` (e.g. 03:00 for a 02:30 start);
 * in a fall-back overlap a repeated local time is inside both times it occurs.
 */
export interface WallWindow {
  zone: string;
  /** Minutes after local midnight, 0–1439. */
  start: number;
  /** Minutes after local midnight of the start day, start < end ≤ start + 1440. */
  end: number;
  /** Bit d set: weekday d (0 = Sunday) allowed. */
  days: number;
}

export const EVERY_DAY = 0b111_1111;

/** Half-open [start, end) in epoch milliseconds. */
export type Interval = [number, number];

/** 1970-01-01, local day 0, was a Thursday. */
export function weekdayOfDay(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function dayAllowed(days: number, day: number): boolean {
  return (days & (1 << weekdayOfDay(day))) !== 0;
}

export function wallWindowContains(window: WallWindow, at: number): boolean {
  const wall = at + zoneOffsets(window.zone).offsetAt(at) * MINUTE_MS;
  const day = Math.floor(wall / DAY_MS);
  const minute = (wall - day * DAY_MS) / MINUTE_MS;
  if (dayAllowed(window.days, day) && minute >= window.start && minute < window.end) return true;
  const fromYesterday = minute + 1440;
  return (
    dayAllowed(window.days, day - 1) && fromYesterday >= window.start && fromYesterday < window.end
  );
}

/** The instants of [from, to) inside the window, as sorted, disjoint, non-touching intervals. */
export function wallWindowIntervals(window: WallWindow, from: number, to: number): Interval[] {
  const out: Interval[] = [];
  for (const segment of zoneOffsets(window.zone).segments(from, to)) {
    const shift = segment.offset * MINUTE_MS;
    const wallFrom = segment.start + shift;
    const wallTo = segment.end + shift;
    // The day before also counts: its window may cross midnight into this segment.
    for (let day = Math.floor(wallFrom / DAY_MS) - 1; day * DAY_MS < wallTo; day += 1) {
      if (!dayAllowed(window.days, day)) continue;
      const start = Math.max(day * DAY_MS + window.start * MINUTE_MS, wallFrom);
      const end = Math.min(day * DAY_MS + window.end * MINUTE_MS, wallTo);
      if (start < end) appendInterval(out, [start - shift, end - shift]);
    }
  }
  return out;
}

/** Appends keeping the list sorted and merged (callers append in ascending start order). */
export function appendInterval(list: Interval[], interval: Interval): void {
  const last = list[list.length - 1];
  if (last && interval[0] <= last[1]) {
    last[1] = Math.max(last[1], interval[1]);
    return;
  }
  list.push(interval);
}
