import type { Interval } from './wall-window';

/** Intersection of two sorted lists of disjoint intervals. */
export function intersectIntervals(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i][0], b[j][0]);
    const end = Math.min(a[i][1], b[j][1]);
    if (start < end) out.push([start, end]);
    if (a[i][1] < b[j][1]) i += 1;
    else j += 1;
  }
  return out;
}

/** The first instant at or after `at` inside one of the sorted intervals; null if none. */
export function firstInstantFrom(intervals: Interval[], at: number): number | null {
  for (const [start, end] of intervals) {
    if (end > at) return Math.max(start, at);
  }
  return null;
}
