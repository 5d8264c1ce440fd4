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
export function ringbackCycle(): Buffer {
  return encodeUlaw(ringbackSamples());
}

/**
 * Rings on `paced` (a cycle queued as each one plays) until the returned stop is called, which
 * drops what is still queued.
 */
export function playRingback(paced: Pick<PacedStream, 'enqueue' | 'clear'>): () => void {
  const cycle = ringbackCycle();
  paced.enqueue(cycle);
  const timer = setInterval(() => paced.enqueue(cycle), RINGBACK_CYCLE_MS);
  return () => {
    clearInterval(timer);
    paced.clear();
  };
}
