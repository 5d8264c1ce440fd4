import { encodeUlaw } from '../audio/g711';
import { Resampler } from '../audio/resampler';

export const TELEPHONE_RATE = 8000;

/**
 * Turns a stream of 16-bit little-endian mono PCM at any rate into μ-law 8 kHz as it arrives.
 * Chunks may split a sample in two: the odd byte waits for the next chunk.
 */
export class PcmToUlaw {
  private readonly resampler: Resampler | undefined;
  private carry: Buffer = Buffer.alloc(0);

  constructor(sampleRate: number) {
    this.resampler =
      sampleRate === TELEPHONE_RATE ? undefined : new Resampler(sampleRate, TELEPHONE_RATE);
  }

  push(pcm: Buffer): Buffer {
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, pcm]) : pcm;
    const whole = bytes.length - (bytes.length % 2);
    this.carry = Buffer.from(bytes.subarray(whole));
    const samples = new Int16Array(whole / 2);
    // Little-endian pairs by hand: readInt16LE's checks per sample showed in the server profile.
    for (let i = 0; i < samples.length; i++) samples[i] = bytes[2 * i] | (bytes[2 * i + 1] << 8);
    return encodeUlaw(this.resampler ? this.resampler.push(samples) : samples);
  }

  /** The resampler's last samples, once the input has ended. */
  flush(): Buffer {
    return this.resampler ? encodeUlaw(this.resampler.flush()) : Buffer.alloc(0);
  }
}
