import { resample, Resampler } from './resampler';

const tone = (hz: number, rate: number, seconds: number, amplitude = 10_000) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  );

/** Amplitude of `hz` in the signal (a single-bin DFT), skipping the edges. */
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

describe('Resampler', () => {
  it.each([
    [8_000, 16_000],
    [16_000, 8_000],
    [24_000, 8_000],
    [22_050, 8_000],
  ])('keeps a 1 kHz tone from %i Hz to %i Hz, at the right length', (from, to) => {
    const out = resample(tone(1_000, from, 0.5), from, to);
    expect(out.length).toBe(Math.round(0.5 * to));
    expect(amplitudeAt(out, to, 1_000)).toBeGreaterThan(9_500);
    expect(amplitudeAt(out, to, 1_000)).toBeLessThan(10_500);
  });

  it('removes what the lower rate cannot carry instead of folding it back (no aliasing)', () => {
    // 6 kHz at 24 kHz would alias to 2 kHz at 8 kHz if samples were dropped.
    const out = resample(tone(6_000, 24_000, 0.5), 24_000, 8_000);
    expect(amplitudeAt(out, 8_000, 2_000)).toBeLessThan(200);
  });

  it('gives the same audio whether the input comes whole or in pieces', () => {
    const input = tone(440, 24_000, 0.3);
    const whole = resample(input, 24_000, 8_000);
    const streaming = new Resampler(24_000, 8_000);
    const pieces: number[] = [];
    for (let at = 0; at < input.length; at += 317) {
      pieces.push(...streaming.push(input.subarray(at, at + 317)));
    }
    pieces.push(...streaming.flush());
    expect(Int16Array.from(pieces.slice(0, whole.length))).toEqual(whole);
  });

  it('gives the same audio when a long chunk grows its buffer between caller-sized frames', () => {
    const input = tone(300, 8_000, 0.5);
    const whole = resample(input, 8_000, 16_000);
    const streaming = new Resampler(8_000, 16_000);
    const pieces: number[] = [];
    const sizes = [160, 160, 2_000, 160, 7, 160];
    for (let at = 0, n = 0; at < input.length; at += sizes[n % sizes.length], n++) {
      pieces.push(...streaming.push(input.subarray(at, at + sizes[n % sizes.length])));
    }
    pieces.push(...streaming.flush());
    expect(Int16Array.from(pieces.slice(0, whole.length))).toEqual(whole);
  });
});
