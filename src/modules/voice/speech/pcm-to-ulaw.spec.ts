import { decodeUlaw, encodeUlaw } from '../audio/g711';
import { Resampler } from '../audio/resampler';
import { PcmToUlaw } from './pcm-to-ulaw';

const pcmOf = (samples: number[]) => Buffer.from(Int16Array.from(samples).buffer);

describe('PcmToUlaw', () => {
  it('encodes 8 kHz PCM as it is, even when a chunk splits a sample', () => {
    const samples = [0, 1200, -1200, 30000, -30000];
    const pcm = pcmOf(samples);
    const encoder = new PcmToUlaw(8000);
    const out = Buffer.concat([encoder.push(pcm.subarray(0, 3)), encoder.push(pcm.subarray(3))]);
    expect(out).toEqual(encodeUlaw(Int16Array.from(samples)));
    expect(encoder.flush()).toHaveLength(0);
  });

  it('resamples 24 kHz to a third as many samples, keeping a tone audible', () => {
    const samples = Array.from({ length: 2400 }, (_, i) =>
      Math.round(10000 * Math.sin((2 * Math.PI * 440 * i) / 24000)),
    );
    const encoder = new PcmToUlaw(24000);
    const pcm = pcmOf(samples);
    const chunks = [];
    for (let offset = 0; offset < pcm.length; offset += 333) {
      chunks.push(encoder.push(pcm.subarray(offset, offset + 333)));
    }
    chunks.push(encoder.flush());
    const out = decodeUlaw(Buffer.concat(chunks));
    expect(Math.abs(out.length - 800)).toBeLessThanOrEqual(2);
    expect(Math.max(...out.subarray(100, 700))).toBeGreaterThan(8000);
  });

  it('gives the μ-law the general resampler path gave, from chunks that split samples', () => {
    const samples = Array.from({ length: 24_000 }, (_, i) =>
      Math.round(
        12_000 * Math.sin((2 * Math.PI * 220 * i) / 24_000) +
          6_000 * Math.sin((2 * Math.PI * 5_000 * i) / 24_000),
      ),
    );
    const pcm = pcmOf(samples);
    const encoder = new PcmToUlaw(24_000);
    const chunks = [];
    for (const [at, size] of [
      [0, 1],
      [1, 2],
      [3, 4_097],
      [4_100, 1],
      [4_101, 48_000],
    ]) {
      chunks.push(encoder.push(pcm.subarray(at, at + size)));
    }
    chunks.push(encoder.flush());
    const actual = decodeUlaw(Buffer.concat(chunks));
    const resampler = new Resampler(24_000, 8_000);
    const reference = Int16Array.from(samples);
    const expected = decodeUlaw(
      Buffer.concat([encodeUlaw(resampler.push(reference)), encodeUlaw(resampler.flush())]),
    );
    expect(actual.length).toBe(expected.length);
    // Within one μ-law step of the old path: a sample one step off may round to the next code.
    for (let i = 0; i < actual.length; i++) {
      expect(Math.abs(actual[i] - expected[i])).toBeLessThanOrEqual(
        Math.max(16, Math.abs(expected[i]) / 8),
      );
    }
  });
});
