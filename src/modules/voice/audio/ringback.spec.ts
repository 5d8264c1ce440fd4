import { decodeUlaw } from './g711';
import { playRingback, RINGBACK_CYCLE_MS, ringbackCycle } from './ringback';

const rms = (samples: Int16Array) =>
  Math.sqrt(samples.reduce((sum, sample) => sum + sample * sample, 0) / samples.length);

describe('ringback', () => {
  it('rings for 2 s, then is silent for 4 s, as a North American line does', () => {
    const pcm = decodeUlaw(ringbackCycle());
    expect(pcm.length).toBe(RINGBACK_CYCLE_MS * 8);
    expect(rms(pcm.subarray(0, 16_000))).toBeGreaterThan(1_000);
    expect(rms(pcm.subarray(16_000))).toBeLessThan(50);
  });

  it('queues a cycle as each one plays until stopped, then drops what is queued', () => {
    jest.useFakeTimers();
    try {
      const queued: number[] = [];
      const paced = { enqueue: (ulaw: Uint8Array) => queued.push(ulaw.length), clear: jest.fn() };
      const stop = playRingback(paced);
      expect(queued).toHaveLength(1);
      jest.advanceTimersByTime(RINGBACK_CYCLE_MS * 2);
      expect(queued).toHaveLength(3);
      stop();
      expect(paced.clear).toHaveBeenCalledTimes(1);
      jest.advanceTimersByTime(RINGBACK_CYCLE_MS * 2);
      expect(queued).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
