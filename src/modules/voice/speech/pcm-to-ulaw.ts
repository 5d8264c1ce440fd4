import { Decimator } from '../audio/decimator';
import { encodeUlaw } from '../audio/g711';
import { Resampler } from '../audio/resampler';

export const TELEPHONE_RATE = 8000;

/**
 * Turns a stream of 16-bit little-endian mono PCM at any rate into μ-law 8 kHz as it arrives.
 * Chunks may split a sample in two: the odd byte waits for the next chunk.
 */
export class PcmToUlaw {
  private readonly converter: Pick<Resampler, 'push' | 'flush'> | undefined;
  /** The first byte of a sample split between chunks; -1 when none is waiting. */
  private oddByte = -1;
  /** Reused for each chunk's samples (grown when a chunk needs more). */
  private samples = new Int16Array(0);

  constructor(sampleRate: number) {
    // 24 kHz (OpenAI's PCM) and 16 kHz divide exactly: a fixed-kernel decimator, not the general
    // resampler's interpolated one.
    this.converter =
      sampleRate === TELEPHONE_RATE
        ? undefined
        : sampleRate % TELEPHONE_RATE === 0
          ? new Decimator(sampleRate / TELEPHONE_RATE)
          : new Resampler(sampleRate, TELEPHONE_RATE);
  }

  push(pcm: Buffer): Buffer {
    if (pcm.length === 0) return Buffer.alloc(0);
    // Bytes of this chunk that complete the sample split off the previous one.
    const skip = this.oddByte >= 0 ? 1 : 0;
    const count = skip + ((pcm.length - skip) >> 1);
    if (count > this.samples.length) {
      this.samples = new Int16Array(Math.max(count, 2 * this.samples.length));
    }
    const samples = this.samples.subarray(0, count);
    if (skip) samples[0] = this.oddByte | (pcm[0] << 8);
    // Little-endian pairs by hand: readInt16LE's checks per sample showed in the server profile.
    for (let i = skip, byte = skip; i < count; i++, byte += 2) {
      samples[i] = pcm[byte] | (pcm[byte + 1] << 8);
    }
    this.oddByte = (pcm.length - skip) % 2 === 1 ? pcm[pcm.length - 1] : -1;
    return encodeUlaw(this.converter ? this.converter.push(samples) : samples);
  }

  /** The converter's last samples, once the input has ended. */
  flush(): Buffer {
    return this.converter ? encodeUlaw(this.converter.flush()) : Buffer.alloc(0);
  }
}
