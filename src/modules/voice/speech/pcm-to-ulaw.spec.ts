import { decodeUlaw, encodeUlaw } from '../audio/g711';
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
});
