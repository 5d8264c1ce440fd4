const WINDOW_MS = 10;
/** Kept either side of the loudest-relative span, so soft word edges are not cut. */
const PADDING_MS = 250;
/** A window counts as speech within 26 dB of the loudest window… */
const RELATIVE_THRESHOLD = 0.05;
/** …and above this RMS (about -54 dBFS), so that line noise alone is never speech. */
const ABSOLUTE_THRESHOLD = 64;

/**
 * The part of an utterance from the first to the last window that sounds like speech, padded:
 * a batch recogniser then decodes the words, not the seconds of line silence around them (a turn
 * buffers everything since the previous one, greeting time included). Empty when nothing in it
 * is louder than line noise.
 */
export function speechSpan(samples: Int16Array, sampleRate: number): Int16Array {
  const window = Math.max(1, Math.round((sampleRate * WINDOW_MS) / 1000));
  const levels: number[] = [];
  for (let start = 0; start < samples.length; start += window) {
    levels.push(rmsLevel(samples, start, Math.min(samples.length, start + window)));
  }
  const threshold = Math.max(ABSOLUTE_THRESHOLD, RELATIVE_THRESHOLD * Math.max(0, ...levels));
  const first = levels.findIndex((level) => level >= threshold);
  if (first === -1) return new Int16Array(0);
  const last = levels.findLastIndex((level) => level >= threshold);
  const padding = Math.round((sampleRate * PADDING_MS) / 1000);
  return samples.subarray(
    Math.max(0, first * window - padding),
    Math.min(samples.length, (last + 1) * window + padding),
  );
}

/** The RMS of `samples[start, end)` (0 when empty): a frame's or a window's level. */
export function rmsLevel(samples: Int16Array, start = 0, end = samples.length): number {
  if (end <= start) return 0;
  let energy = 0;
  for (let i = start; i < end; i++) energy += samples[i] * samples[i];
  return Math.sqrt(energy / (end - start));
}
