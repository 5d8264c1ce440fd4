import { DTMF_COLUMNS, DTMF_LAYOUT, DTMF_ROWS } from '../../src/modules/voice/audio/dtmf';
import { decodeUlaw } from '../../src/modules/voice/audio/g711';
/** 25 ms windows: long enough to tell the keypad's frequencies apart at 8 kHz. */
const WINDOW = 200;

function goertzel(samples: Int16Array, from: number, hz: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / 8000);
  let previous = 0;
  let beforePrevious = 0;
  for (let i = from; i < from + WINDOW; i += 1) {
    const current = samples[i] + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  return (
    previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
  );
}

/** The strongest of `powers` when it stands well above the others; -1 otherwise. */
function dominant(powers: number[]): number {
  const best = powers.indexOf(Math.max(...powers));
  const others = powers.filter((_, i) => i !== best);
  return powers[best] > 1e9 && others.every((power) => power * 10 < powers[best]) ? best : -1;
}

/**
 * The DTMF keys heard in 8 kHz μ-law audio, as a far-end receiver would (Goertzel filters at
 * the eight keypad frequencies, window by window); a key held over several windows counts once.
 */
export function detectDtmf(ulaw: Buffer): string {
  const samples = decodeUlaw(ulaw);
  let keys = '';
  let held: string | null = null;
  for (let from = 0; from + WINDOW <= samples.length; from += WINDOW) {
    const row = dominant(DTMF_ROWS.map((hz) => goertzel(samples, from, hz)));
    const column = dominant(DTMF_COLUMNS.map((hz) => goertzel(samples, from, hz)));
    const key = row >= 0 && column >= 0 ? DTMF_LAYOUT[row][column] : null;
    if (key && key !== held) keys += key;
    held = key;
  }
  return keys;
}
