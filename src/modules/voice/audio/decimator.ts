import { windowedSinc } from './resampler';

/**
 * A streaming low-pass decimator for 16-bit mono audio by a whole factor (24 kHz → 8 kHz is 3,
 * 16 kHz → 8 kHz is 2): the Resampler's windowed sinc, but every output sample sits exactly on an
 * input sample, so the filter is one fixed kernel, built once per factor, and its symmetry halves
 * the multiplications. Only the outputs kept are computed. Output n is centred on input n·factor,
 * as the Resampler's is, and chunks of any size give the audio one piece would.
 */
export class Decimator {
  /** Taps either side of the centre tap. */
  private readonly half: number;
  /** kernel[j] weighs the inputs j samples before and after the centre. */
  private readonly kernel: Float64Array;
  /** Input not yet fully used in `buffer[0, held)`, reused across chunks (grown when needed). */
  private buffer: Int16Array;
  private held: number;
  /** Index in `buffer` of the next output's centre sample. */
  private centre: number;

  constructor(
    readonly factor: number,
    zeroCrossings = 16,
  ) {
    if (!Number.isInteger(factor) || factor < 2) throw new Error('a whole factor of 2 or more');
    const cutoff = (0.95 * 0.5) / factor;
    // The Resampler's width; its outermost taps fall on the window's zeros and are dropped.
    this.half = Math.ceil(zeroCrossings / (2 * cutoff)) - 1;
    this.kernel = kernelFor(cutoff, this.half + 1);
    // Silence before the first sample, so the first output is centred on input 0.
    this.buffer = new Int16Array(4 * (this.half + 1) * factor);
    this.held = this.half;
    this.centre = this.half;
  }

  /** Decimates the next chunk; output lags input by the filter's half width until `flush`. */
  push(chunk: Int16Array): Int16Array {
    const held = this.held + chunk.length;
    if (held > this.buffer.length) {
      const grown = new Int16Array(Math.max(held, 2 * this.buffer.length));
      grown.set(this.buffer.subarray(0, this.held));
      this.buffer = grown;
    }
    const input = this.buffer;
    input.set(chunk, this.held);
    const { half, kernel, factor } = this;
    const last = held - 1 - half; // the last centre whose taps are all here
    const count = last >= this.centre ? Math.floor((last - this.centre) / factor) + 1 : 0;
    const out = new Int16Array(count);
    let centre = this.centre;
    for (let n = 0; n < count; n++, centre += factor) {
      let sum = kernel[0] * input[centre];
      for (let j = 1; j <= half; j++) sum += kernel[j] * (input[centre - j] + input[centre + j]);
      out[n] = sum >= 32767 ? 32767 : sum <= -32768 ? -32768 : Math.round(sum);
    }
    const keepFrom = centre - half;
    input.copyWithin(0, keepFrom, held);
    this.held = held - keepFrom;
    this.centre = centre - keepFrom;
    return out;
  }

  /** The last samples, once the input has ended: one per `factor` inputs, rounded up. */
  flush(): Int16Array {
    return this.push(new Int16Array(this.half + 1));
  }
}

/** Half kernels by cutoff: every synthesis makes a Decimator. */
const kernels = new Map<string, Float64Array>();

function kernelFor(cutoff: number, halfTaps: number): Float64Array {
  const key = `${cutoff}/${halfTaps}`;
  let kernel = kernels.get(key);
  if (!kernel) {
    // The windowed sinc at whole-sample offsets 0…halfTaps-1, as the Resampler's table has it.
    const table = windowedSinc(cutoff, halfTaps, 1);
    kernel = Float64Array.from({ length: halfTaps }, (_, j) => table[halfTaps + j]);
    kernels.set(key, kernel);
  }
  return kernel;
}
