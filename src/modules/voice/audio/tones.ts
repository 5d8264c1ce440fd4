/** The sample rate of every phone stream's audio (G.711). */
export const TONE_SAMPLE_RATE = 8_000;

/**
 * Adds two sines (`low` and `high` Hz, each of `amplitude`) into `pcm` from sample `start` for
 * `samples` samples: the shape of every call-progress and keypad tone.
 */
export function writeDualTone(
  pcm: Int16Array,
  start: number,
  samples: number,
  [low, high]: readonly [number, number],
  amplitude: number,
): void {
  for (let i = 0; i < samples; i += 1) {
    const t = i / TONE_SAMPLE_RATE;
    pcm[start + i] = Math.round(
      amplitude * (Math.sin(2 * Math.PI * low * t) + Math.sin(2 * Math.PI * high * t)),
    );
  }
}
