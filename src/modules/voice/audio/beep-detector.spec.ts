import { FRAME_BYTES } from '../media/media-stream';
import { BeepDetector, type Beep } from './beep-detector';
import { encodeUlaw } from './g711';

const RATE = 8_000;
const samplesIn = (ms: number) => Math.round((RATE * ms) / 1_000);

const silence = (ms: number) => new Int16Array(samplesIn(ms));

const tone = (ms: number, ...hz: number[]) =>
  Int16Array.from({ length: samplesIn(ms) }, (_, i) =>
    Math.round(
      hz.reduce((sum, f) => sum + (8_000 / hz.length) * Math.sin((2 * Math.PI * f * i) / RATE), 0),
    ),
  );

/** Deterministic pseudo-random numbers in [-1, 1), so a failure can be replayed. */
function noiseSource(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 1_073_741_824 - 1;
  };
}

/** Voiced speech, roughly: a gliding pitch with decaying harmonics, plus breath noise. */
function speechLike(ms: number, seed = 7): Int16Array {
  const noise = noiseSource(seed);
  let phase = 0;
  return Int16Array.from({ length: samplesIn(ms) }, (_, i) => {
    const pitch = 140 + 40 * Math.sin((2 * Math.PI * i) / (RATE * 0.7));
    phase += (2 * Math.PI * pitch) / RATE;
    let sample = 0;
    for (let harmonic = 1; harmonic <= 20; harmonic++) {
      sample += Math.sin(harmonic * phase) / harmonic;
    }
    return Math.round(3_000 * sample + 800 * noise());
  });
}

const join = (...parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** Pushes the audio through a detector in 20 ms μ-law frames; returns every beep reported. */
function detect(samples: Int16Array, detector = new BeepDetector()): Beep[] {
  const ulaw = encodeUlaw(samples);
  const beeps: Beep[] = [];
  for (let at = 0; at + FRAME_BYTES <= ulaw.length; at += FRAME_BYTES) {
    const beep = detector.push(ulaw.subarray(at, at + FRAME_BYTES));
    if (beep) beeps.push(beep);
  }
  return beeps;
}

describe('BeepDetector', () => {
  it.each([1_000, 850, 975, 1_100, 440, 490])(
    'finds a %i Hz beep after a greeting and reports when it ended',
    (hz) => {
      const beeps = detect(join(speechLike(1_500), silence(300), tone(400, hz), silence(500)));
      expect(beeps).toHaveLength(1);
      expect(Math.abs(beeps[0].frequency - hz)).toBeLessThanOrEqual(25);
      // The tone runs 1,800–2,200 ms; frame edges blur it by at most one frame.
      expect(Math.abs(beeps[0].startedAtMs - 1_800)).toBeLessThanOrEqual(20);
      expect(Math.abs(beeps[0].endedAtMs - 2_200)).toBeLessThanOrEqual(20);
    },
  );

  it('finds a 150 ms beep however the frames cut it', () => {
    for (let offsetMs = 0; offsetMs < 20; offsetMs += 2.5) {
      expect(detect(join(silence(200 + offsetMs), tone(150, 1_000), silence(200)))).toHaveLength(1);
    }
  });

  it('ignores a tone too short to be a beep', () => {
    for (let offsetMs = 0; offsetMs < 20; offsetMs += 2.5) {
      expect(detect(join(silence(200 + offsetMs), tone(100, 1_000), silence(200)))).toEqual([]);
    }
  });

  it('ignores speech-like audio and noise', () => {
    const noise = noiseSource(3);
    const white = Int16Array.from({ length: samplesIn(3_000) }, () => Math.round(6_000 * noise()));
    expect(detect(join(speechLike(5_000), white, speechLike(3_000, 11)))).toEqual([]);
  });

  it('ignores a quiet tone below the level of a real beep', () => {
    const quiet = tone(400, 1_000).map((s) => s / 100);
    expect(detect(join(silence(200), quiet, silence(200)))).toEqual([]);
  });

  it('ignores a tone held too long (ringback, dial tone)', () => {
    expect(detect(join(tone(2_500, 1_000), silence(400)))).toEqual([]);
  });

  it('ignores the two-tone US ringback (440 + 480 Hz, 2 s on)', () => {
    expect(detect(join(tone(2_000, 440, 480), silence(4_000), tone(2_000, 440, 480)))).toEqual([]);
  });
});
