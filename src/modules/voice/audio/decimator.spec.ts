import { Decimator } from './decimator';
import { Resampler } from './resampler';

const tone = (hz: number, rate: number, seconds: number, amplitude = 10_000) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  );

/** Pushes `input` in pieces of the given sizes (cycled), then flushes; the output joined. */
function run(
  converter: { push(c: Int16Array): Int16Array; flush(): Int16Array },
  input: Int16Array,
  sizes: number[],
) {
  const out: number[] = [];
  for (let at = 0, n = 0; at < input.length; at += sizes[n % sizes.length], n++) {
    out.push(...converter.push(input.subarray(at, at + sizes[n % sizes.length])));
  }
  out.push(...converter.flush());
  return Int16Array.from(out);
}

/** Amplitude of `hz` in the middle half of the signal (a single-bin DFT). */
function amplitudeAt(samples: Int16Array, rate: number, hz: number): number {
  const from = Math.floor(samples.length / 4);
  const to = Math.floor((3 * samples.length) / 4);
  let re = 0;
  let im = 0;
  for (let i = from; i < to; i++) {
    re += samples[i] * Math.cos((2 * Math.PI * hz * i) / rate);
    im += samples[i] * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / (to - from);
}

/** Mixed tones and a chirp near full scale: what a synthesized voice spans, and clipping. */
function speechLike(rate: number, seconds: number): Int16Array {
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => {
    const t = i / rate;
    const value =
      9_000 * Math.sin(2 * Math.PI * 180 * t) +
      7_000 * Math.sin(2 * Math.PI * 1_300 * t) +
      5_000 * Math.sin(2 * Math.PI * (200 + 4_000 * t) * t) +
      12_000 * Math.sin(2 * Math.PI * 5_500 * t);
    return Math.max(-32768, Math.min(32767, Math.round(value)));
  });
}

describe('Decimator', () => {
  it.each([
    [24_000, 3],
    [16_000, 2],
  ])('gives what the general Resampler gives from %i Hz, within one step', (rate, factor) => {
    const input = speechLike(rate, 1);
    const expected = run(new Resampler(rate, 8_000), input, [rate]);
    const actual = run(new Decimator(factor), input, [4_801, 960, 7, 2_048]);
    expect(actual.length).toBe(expected.length);
    let worst = 0;
    for (let i = 0; i < actual.length; i++)
      worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('keeps a 1 kHz tone at its level and removes what 8 kHz cannot carry (no aliasing)', () => {
    const kept = run(new Decimator(3), tone(1_000, 24_000, 0.5), [24_000]);
    expect(amplitudeAt(kept, 8_000, 1_000)).toBeGreaterThan(9_500);
    expect(amplitudeAt(kept, 8_000, 1_000)).toBeLessThan(10_500);
    // 6 kHz at 24 kHz would fold to 2 kHz if samples were only dropped.
    const removed = run(new Decimator(3), tone(6_000, 24_000, 0.5), [24_000]);
    expect(amplitudeAt(removed, 8_000, 2_000)).toBeLessThan(200);
  });

  it('gives the same audio whether the input comes whole or in pieces of any size', () => {
    const input = speechLike(24_000, 0.3);
    const whole = run(new Decimator(3), input, [input.length]);
    expect(whole.length).toBe(Math.floor(input.length / 3) + 1);
    expect(run(new Decimator(3), input, [1, 2, 317, 3, 4_000])).toEqual(whole);
  });
});
