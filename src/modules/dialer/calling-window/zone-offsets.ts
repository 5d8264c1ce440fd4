import { IANAZone } from 'luxon';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** A stretch of time with one UTC offset (minutes east of UTC) in a zone. */
export interface OffsetSegment {
  start: number;
  end: number;
  offset: number;
}

interface Transition {
  at: number;
  offset: number;
}

interface Chunk {
  startOffset: number;
  transitions: Transition[];
}

// Offsets are found once per zone and 64-day chunk (luxon reads them from Intl), then every
// decision is a binary search over a handful of transitions: this is what keeps a decision in
// microseconds. Sampling every 6 h cannot miss a transition: no zone changes offset twice in 6 h.
const CHUNK_MS = 64 * DAY_MS;
const SAMPLE_MS = 6 * HOUR_MS;

class ZoneOffsets {
  private readonly chunks = new Map<number, Chunk>();

  constructor(private readonly zone: IANAZone) {}

  offsetAt(at: number): number {
    const chunk = this.chunk(Math.floor(at / CHUNK_MS));
    let offset = chunk.startOffset;
    for (const transition of chunk.transitions) {
      if (transition.at > at) break;
      offset = transition.offset;
    }
    return offset;
  }

  /** The segments of constant offset covering [from, to), in order. */
  segments(from: number, to: number): OffsetSegment[] {
    const out: OffsetSegment[] = [];
    let start = from;
    let offset = this.offsetAt(from);
    for (let index = Math.floor(from / CHUNK_MS); index * CHUNK_MS < to; index += 1) {
      for (const transition of this.chunk(index).transitions) {
        if (transition.at <= from || transition.at >= to) continue;
        out.push({ start, end: transition.at, offset });
        start = transition.at;
        offset = transition.offset;
      }
    }
    out.push({ start, end: to, offset });
    return out;
  }

  private chunk(index: number): Chunk {
    let chunk = this.chunks.get(index);
    if (!chunk) {
      chunk = this.scan(index * CHUNK_MS, (index + 1) * CHUNK_MS);
      this.chunks.set(index, chunk);
    }
    return chunk;
  }

  private scan(from: number, to: number): Chunk {
    const startOffset = this.zone.offset(from);
    const transitions: Transition[] = [];
    let previousAt = from;
    let previous = startOffset;
    for (let at = from + SAMPLE_MS; at <= to; at += SAMPLE_MS) {
      const offset = this.zone.offset(at);
      if (offset !== previous) {
        // The first millisecond with the new offset lies in (previousAt, at].
        let low = previousAt;
        let high = at;
        while (high - low > 1) {
          const middle = Math.floor((low + high) / 2);
          if (this.zone.offset(middle) === previous) low = middle;
          else high = middle;
        }
        if (high < to) transitions.push({ at: high, offset });
      }
      previousAt = at;
      previous = offset;
    }
    return { startOffset, transitions };
  }
}

const zones = new Map<string, ZoneOffsets>();

/** Offsets of a valid IANA zone (check with isValidZone first). */
export function zoneOffsets(name: string): ZoneOffsets {
  let offsets = zones.get(name);
  if (!offsets) {
    offsets = new ZoneOffsets(IANAZone.create(name));
    zones.set(name, offsets);
  }
  return offsets;
}

const validity = new Map<string, boolean>();

export function isValidZone(name: string): boolean {
  let valid = validity.get(name);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(name);
    if (validity.size < 10_000) validity.set(name, valid);
  }
  return valid;
}

export type { ZoneOffsets };
