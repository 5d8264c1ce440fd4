import {
  alawToUlaw,
  decodeAlaw,
  decodeUlaw,
  decodeUlawFloatInto,
  encodeUlaw,
  ulawRmsLevel,
} from './g711';
import { rmsLevel } from './speech-span';

/** The segment search of the G.711 reference encoder, which the lookup table must reproduce. */
function referenceUlaw(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), 32635) + 0x84;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  magnitude = sign | (exponent << 4) | ((magnitude >> (exponent + 3)) & 0x0f);
  return ~magnitude & 0xff;
}

describe('G.711', () => {
  it('decodes the μ-law reference points', () => {
    expect(Array.from(decodeUlaw(Uint8Array.from([0xff, 0x7f, 0x00, 0x80])))).toEqual([
      0, 0, -32124, 32124,
    ]);
  });

  it('encodes every decoded μ-law value back to its byte', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i).filter((b) => b !== 0x7f); // 0x7f and 0xff are both zero
    expect(Array.from(encodeUlaw(decodeUlaw(bytes)))).toEqual(Array.from(bytes));
  });

  it('keeps a quantised sample within one step of the original', () => {
    const samples = Int16Array.from([-30000, -1000, -5, 0, 7, 1234, 20000]);
    const back = decodeUlaw(encodeUlaw(samples));
    samples.forEach((s, i) =>
      expect(Math.abs(back[i] - s)).toBeLessThanOrEqual(Math.abs(s) / 16 + 8),
    );
  });

  it('decodes A-law and transcodes it to μ-law of nearly the same value', () => {
    expect(Array.from(decodeAlaw(Uint8Array.from([0xd5, 0x55, 0x2a, 0xaa])))).toEqual([
      8, -8, -32256, 32256,
    ]);
    const alaw = Uint8Array.from({ length: 256 }, (_, i) => i);
    const linear = decodeAlaw(alaw);
    const viaUlaw = decodeUlaw(alawToUlaw(alaw));
    linear.forEach((s, i) =>
      expect(Math.abs(viaUlaw[i] - s)).toBeLessThanOrEqual(Math.abs(s) / 16 + 8),
    );
  });

  it('encodes every 16-bit sample as the reference segment search does', () => {
    const samples = Int16Array.from({ length: 65_536 }, (_, i) => i - 32_768);
    const encoded = encodeUlaw(samples);
    const wrong = samples.filter((s, i) => encoded[i] !== referenceUlaw(s));
    expect(Array.from(wrong)).toEqual([]);
  });

  it('gives the level of μ-law audio without decoding it, as rmsLevel of the decoded samples', () => {
    const ulaw = Uint8Array.from({ length: 160 }, (_, i) => (i * 37 + 11) & 0xff);
    expect(ulawRmsLevel(ulaw)).toBe(rmsLevel(decodeUlaw(ulaw)));
    expect(ulawRmsLevel(new Uint8Array(0))).toBe(0);
  });

  it('decodes to floats in [-1, 1) at an offset, as the linear samples / 32768', () => {
    const ulaw = Uint8Array.from({ length: 256 }, (_, byte) => byte);
    const out = new Float32Array(260).fill(9);
    decodeUlawFloatInto(ulaw, out, 3);
    expect(Array.from(out.subarray(3, 259))).toEqual(
      Array.from(decodeUlaw(ulaw), (sample) => sample / 32_768),
    );
    expect([out[2], out[259]]).toEqual([9, 9]);
  });
});
