/** Time for the outbound pacer, injectable so tests can drive it frame by frame. */
export interface PacerClock {
  /** Monotonic milliseconds (fractional). */
  now(): number;
  /** Runs `callback` once after `delayMs`; returns a function that cancels it. */
  schedule(callback: () => void, delayMs: number): () => void;
}

export const systemClock: PacerClock = {
  now: () => performance.now(),
  schedule: (callback, delayMs) => {
    const timer = setTimeout(callback, delayMs);
    return () => clearTimeout(timer);
  },
};
