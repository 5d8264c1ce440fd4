import { decodeUlaw } from './g711';
import { playRingback, RINGBACK_CYCLE, RINGBACK_CYCLE_MS } from './ringback';

const rms = (samples: Int16Array) =>
  Math.sqrt(samples.reduce((sum, sample) => sum + sample * sample, 0) / samples.length);

describe('ringback', () => {
  it('rings for 2 s, then is silent for 4 s, as a North American line does', () => {
    const pcm = decodeUlaw(RINGBACK_CYCLE);
    expect(pcm.length).toBe(RINGBACK_CYCLE_MS * 8);
    expect(rms(pcm.subarray(0, 16_000))).toBeGreaterThan(1_000);
    expect(rms(pcm.subarray(16_000))).toBeLessThan(50);
  });

  it('queues ringing for the whole wait, whole cycles, and drops what is left when stopped', () => {
    const queued: number[] = [];
    const paced = { enqueue: (ulaw: Uint8Array) => queued.push(ulaw.length), clear: jest.fn() };
    const stop = playRingback(paced, RINGBACK_CYCLE_MS * 2 + 1);
    expect(queued).toEqual([1, 2, 3].map(() => RINGBACK_CYCLE.length));
    expect(paced.clear).not.toHaveBeenCalled();
    stop();
    expect(paced.clear).toHaveBeenCalledTimes(1);
  });
});
