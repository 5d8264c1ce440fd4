import { encodeUlaw } from './g711';
import type { PacedStream } from './paced-stream';
import { TONE_SAMPLE_RATE, writeDualTone } from './tones';

/** North American ringback: 440 + 480 Hz, 2 s on, 4 s off (ANSI T1.401). */
const RINGBACK_HZ = [440, 480] as const;
const RINGBACK_ON_MS = 2_000;
export const RINGBACK_CYCLE_MS = 6_000;
/** About −19 dBm0 a sine, the level a ringing line is heard at. */
const RINGBACK_AMPLITUDE = 2_000;

/** One ringback cycle as 8 kHz 16-bit samples: what a caller hears while a line rings for them. */
export function ringbackSamples(): Int16Array {
  const pcm = new Int16Array((RINGBACK_CYCLE_MS * TONE_SAMPLE_RATE) / 1000);
  writeDualTone(
    pcm,
    0,
    (RINGBACK_ON_MS * TONE_SAMPLE_RATE) / 1000,
    RINGBACK_HZ,
    RINGBACK_AMPLITUDE,
  );
  return pcm;
}

/** One ringback cycle as 8 kHz μ-law, what a media stream carries. */
export const RINGBACK_CYCLE = encodeUlaw(ringbackSamples());

/**
 * Rings on `paced` for `ms` (whole cycles, queued at once: the stream paces them out) until the
 * returned stop is called, which drops what is still queued.
 */
export function playRingback(
  paced: Pick<PacedStream, 'enqueue' | 'clear'>,
  ms: number,
): () => void {
  for (let played = 0; played < ms; played += RINGBACK_CYCLE_MS) paced.enqueue(RINGBACK_CYCLE);
  return () => paced.clear();
}
