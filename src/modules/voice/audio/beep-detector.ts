import { FRAME_MS } from '../media/media-stream';
import { decodeUlaw } from './g711';

/**
 * Finds the answering machine's beep in the caller's audio, so the agent leaves its message after
 * it rather than talking over the greeting. Each 20 ms frame goes through a bank of Goertzel
 * filters at the usual beep pitches; a beep is one pitch that holds most of the frame's energy
 * for ≥ 150 ms. Speech never does that: its energy spreads over harmonics and glides in pitch.
 */
export interface BeepDetectorOptions {
  /** The pitches probed (Hz): ~850–1,100 Hz is the usual beep, 440–500 Hz on some systems. */
  frequencies: readonly number[];
  /** How far (Hz) the pitch may wander between frames of one tone. */
  maxGlideHz: number;
  /** Share of the frame's energy one pitch must hold (0–1). */
  minToneShare: number;
  /** Frames quieter than this RMS (16-bit linear) are silence, whatever their spectrum. */
  minRms: number;
  minToneMs: number;
  /** A steadier tone is a ringback (2 s) or dial tone, not a beep. */
  maxToneMs: number;
}

export const DEFAULT_BEEP_OPTIONS: BeepDetectorOptions = {
  // 25 Hz apart: a 160-sample frame's bins are 50 Hz wide, and a tone half a bin off a probe
  // shows only 40 % of its energy there; a quarter bin off, 80 %.
  frequencies: [...steps(400, 550, 25), ...steps(800, 1_150, 25)],
  maxGlideHz: 50,
  minToneShare: 0.6,
  minRms: 300,
  // 7 frames: a 150 ms tone that starts mid-frame still fills 7 whole frames; 100 ms never 6.
  minToneMs: 140,
  maxToneMs: 1_800,
};

const SAMPLE_RATE = 8_000;

/** A beep heard: the voicemail recording starts at `endedAtMs`. */
export interface Beep {
  frequency: number;
  startedAtMs: number;
  endedAtMs: number;
}

interface ToneRun {
  probe: number;
  startedAtMs: number;
  frames: number;
}

export class BeepDetector {
  private readonly options: BeepDetectorOptions;
  private readonly coefficients: Float64Array;
  private run: ToneRun | undefined;
  private heardMs = 0;

  constructor(options: Partial<BeepDetectorOptions> = {}) {
    this.options = { ...DEFAULT_BEEP_OPTIONS, ...options };
    this.coefficients = Float64Array.from(
      this.options.frequencies,
      (hz) => 2 * Math.cos((2 * Math.PI * hz) / SAMPLE_RATE),
    );
  }

  /** How long the tone under way has held so far (0: none). */
  get toneMs(): number {
    return (this.run?.frames ?? 0) * FRAME_MS;
  }

  /**
   * One 20 ms μ-law frame of caller audio. Returns the beep when this frame is the first after
   * it (the tone just ended), otherwise undefined. Times are ms since the first frame pushed.
   */
  push(ulaw: Uint8Array): Beep | undefined {
    const frameStartMs = this.heardMs;
    this.heardMs += (ulaw.length * 1_000) / SAMPLE_RATE;
    const probe = this.dominantTone(decodeUlaw(ulaw));
    const run = this.run;
    // A tone between two probes may show at either as frames cut it differently.
    if (run && probe !== undefined && this.sameTone(probe, run.probe)) {
      run.frames += 1;
      return undefined;
    }
    this.run = probe === undefined ? undefined : { probe, startedAtMs: frameStartMs, frames: 1 };
    if (!run) return undefined;
    const toneMs = run.frames * FRAME_MS;
    if (toneMs < this.options.minToneMs || toneMs > this.options.maxToneMs) return undefined;
    return {
      frequency: this.options.frequencies[run.probe],
      startedAtMs: run.startedAtMs,
      endedAtMs: frameStartMs,
    };
  }

  private sameTone(probe: number, runProbe: number): boolean {
    const { frequencies, maxGlideHz } = this.options;
    return Math.abs(frequencies[probe] - frequencies[runProbe]) <= maxGlideHz;
  }

  /** The probe index holding at least `minToneShare` of the frame's energy, if any. */
  private dominantTone(samples: Int16Array): number | undefined {
    let energy = 0;
    for (const sample of samples) energy += sample * sample;
    if (samples.length === 0 || Math.sqrt(energy / samples.length) < this.options.minRms) {
      return undefined;
    }
    let best: number | undefined;
    let bestShare = this.options.minToneShare;
    for (let probe = 0; probe < this.coefficients.length; probe++) {
      // |X(f)|² of a pure tone is (N·A/2)² and its energy N·A²/2, so this share is 1 for a pure tone.
      const share =
        (2 * goertzelPower(samples, this.coefficients[probe])) / (samples.length * energy);
      if (share >= bestShare) {
        best = probe;
        bestShare = share;
      }
    }
    return best;
  }
}

/** Squared magnitude of one DFT bin at the frequency whose coefficient is 2·cos(2πf/fs). */
function goertzelPower(samples: Int16Array, coefficient: number): number {
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  return (
    previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
  );
}

function steps(from: number, to: number, step: number): number[] {
  return Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);
}
