/**
 * A streaming windowed-sinc resampler for 16-bit mono audio (any rate to any rate). It keeps the
 * tail of the previous chunk, so audio cut into chunks of any size resamples exactly as it would
 * in one piece: synthesis streams and caller frames both arrive in pieces. Never decimates by
 * dropping samples: the low-pass below the lower Nyquist rate is what keeps speech free of
 * aliasing.
 */
export class Resampler {
  private readonly step: number;
  private readonly cutoff: number;
  private readonly halfTaps: number;
  /** The windowed sinc sampled every 1/TABLE_STEPS of an input sample, from -halfTaps. */
  private readonly kernel: Float32Array;
  /**
   * Input not yet fully used, as floats, in `buffer[0, held)`; `position` indexes into it in input
   * samples. The buffer is reused across chunks (grown when a chunk needs more), so a caller's
   * 20 ms frame costs no allocation beyond its output.
   */
  private buffer: Float32Array;
  private held: number;
  private position: number;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
    zeroCrossings = 16,
  ) {
    this.step = fromRate / toRate;
    // Normalised to the input rate; 0.95 keeps the transition band below the new Nyquist.
    this.cutoff = 0.95 * Math.min(1, toRate / fromRate) * 0.5;
    this.halfTaps = Math.ceil(zeroCrossings / (2 * this.cutoff));
    this.kernel = kernelFor(this.cutoff, this.halfTaps);
    // Start with silence before the first sample, so the first output aligns with input 0.
    this.buffer = new Float32Array(4 * this.halfTaps);
    this.held = this.halfTaps;
    this.position = this.halfTaps;
  }

  /** Resamples the next chunk; output lags input by the filter's half width until `flush`. */
  push(chunk: Int16Array): Int16Array {
    const length = this.held + chunk.length;
    if (length > this.buffer.length) {
      const grown = new Float32Array(Math.max(length, 2 * this.buffer.length));
      grown.set(this.buffer.subarray(0, this.held));
      this.buffer = grown;
    }
    const input = this.buffer;
    input.set(chunk, this.held);
    let count = 0;
    for (let at = this.position; at + this.halfTaps < length; at += this.step) count++;
    const out = new Int16Array(count);
    for (let n = 0; n < count; n++) {
      out[n] = this.sampleAt(input, length, this.position);
      this.position += this.step;
    }
    const keepFrom = Math.max(0, Math.floor(this.position) - this.halfTaps);
    input.copyWithin(0, keepFrom, length);
    this.held = length - keepFrom;
    this.position -= keepFrom;
    return out;
  }

  /** The last samples, once the input has ended. */
  flush(): Int16Array {
    return this.push(new Int16Array(this.halfTaps + 1));
  }

  /** One output sample from `input[0, length)`; taps outside it count as silence. */
  private sampleAt(input: Float32Array, length: number, at: number): number {
    const centre = Math.floor(at);
    const offset = Math.round((at - centre) * TABLE_STEPS);
    const first = centre - this.halfTaps + 1;
    const from = Math.max(0, first);
    const to = Math.min(length - 1, centre + this.halfTaps);
    const kernel = this.kernel;
    let sum = 0;
    // Tap i sits at x = i - at; its kernel entry is (x + halfTaps) * TABLE_STEPS.
    let entry = TABLE_STEPS - offset + (from - first) * TABLE_STEPS;
    for (let i = from; i <= to; i++) {
      sum += input[i] * kernel[entry];
      entry += TABLE_STEPS;
    }
    return Math.max(-32768, Math.min(32767, Math.round(sum)));
  }
}

const TABLE_STEPS = 256;

/** Kernels by cutoff and width: each synthesis and each call's detector makes a Resampler. */
const kernels = new Map<string, Float32Array>();

function kernelFor(cutoff: number, halfTaps: number): Float32Array {
  const key = `${cutoff}/${halfTaps}`;
  let kernel = kernels.get(key);
  if (!kernel) {
    kernel = windowedSinc(cutoff, halfTaps);
    kernels.set(key, kernel);
  }
  return kernel;
}

/** The Hann-windowed sinc from -halfTaps to +halfTaps, sampled `steps` times per input sample. */
export function windowedSinc(cutoff: number, halfTaps: number, steps = TABLE_STEPS): Float32Array {
  const table = new Float32Array(2 * halfTaps * steps + 1);
  for (let n = 0; n < table.length; n++) {
    const x = n / steps - halfTaps;
    const window = 0.5 + 0.5 * Math.cos((Math.PI * x) / halfTaps); // Hann
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    table[n] = sinc * window;
  }
  return table;
}

/** Resamples a whole clip. */
export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return samples.slice();
  const resampler = new Resampler(fromRate, toRate);
  const head = resampler.push(samples);
  const tail = resampler.flush();
  const out = new Int16Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out.subarray(0, Math.round((samples.length * toRate) / fromRate));
}
