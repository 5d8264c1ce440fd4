import {
  MAX_ATTEMPTS,
  nextRetryDelayMs,
  OVERLOAD_MIN_DELAY_MS,
  RETRY_AFTER_CAP_MS,
  RETRY_DELAYS_MS,
} from './delivery-schedule';

const plain = { overloaded: false, random: 0.5 };

describe('delivery retry schedule', () => {
  it('makes 13 attempts in all over about 3.9 days', () => {
    expect(MAX_ATTEMPTS).toBe(13);
    const total = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3_600_000).toBeCloseTo(94.7, 1);
  });

  it('waits the scheduled delay after each failed attempt (no jitter at random 0.5)', () => {
    const delays = Array.from({ length: 12 }, (_, i) =>
      nextRetryDelayMs({ ...plain, attemptNo: i + 1 }),
    );
    expect(delays).toEqual([...RETRY_DELAYS_MS]);
  });

  it('stops after the 13th attempt', () => {
    expect(nextRetryDelayMs({ ...plain, attemptNo: 13 })).toBeUndefined();
    expect(nextRetryDelayMs({ ...plain, attemptNo: 14 })).toBeUndefined();
  });

  it('jitters by ±20 %', () => {
    expect(nextRetryDelayMs({ ...plain, attemptNo: 1, random: 0 })).toBe(4_000);
    expect(nextRetryDelayMs({ ...plain, attemptNo: 1, random: 0.999999 })).toBe(6_000);
    expect(nextRetryDelayMs({ ...plain, attemptNo: 2, random: 0.25 })).toBe(27_000);
  });

  it('honours a longer Retry-After, capped at one hour, and never retries sooner than scheduled', () => {
    expect(nextRetryDelayMs({ ...plain, attemptNo: 1, retryAfterMs: 120_000 })).toBe(120_000);
    expect(nextRetryDelayMs({ ...plain, attemptNo: 1, retryAfterMs: 86_400_000 })).toBe(
      RETRY_AFTER_CAP_MS,
    );
    expect(nextRetryDelayMs({ ...plain, attemptNo: 3, retryAfterMs: 1_000 })).toBe(120_000);
    expect(nextRetryDelayMs({ ...plain, attemptNo: 9, retryAfterMs: 60_000 })).toBe(43_200_000);
  });

  it('waits at least 60 s after a 429 or a timeout', () => {
    expect(nextRetryDelayMs({ ...plain, attemptNo: 1, overloaded: true })).toBe(
      OVERLOAD_MIN_DELAY_MS,
    );
    expect(nextRetryDelayMs({ ...plain, attemptNo: 4, overloaded: true })).toBe(600_000);
  });
});
