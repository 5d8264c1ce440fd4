import { alawToUlaw, decodeAlaw, decodeUlaw, encodeUlaw } from './g711';

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
});
