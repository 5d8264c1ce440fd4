/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FRAME_BYTES, FRAME_MS } from '../media/media-stream';
import { decodeUlaw, encodeUlaw } from './g711';
import { rmsLevel } from './speech-span';
import { DEFAULT_TURN_OPTIONS, TurnTracker, type TurnEvent } from './turn-tracker';
import { VoiceActivityDetector } from './voice-activity-detector';

// The end of turn on real speech: eSpeak NG utterances (test/fixtures/voice) through the real
// Silero VAD, frame by frame as a call hears them, each frame's level given to the tracker
// before the VAD has scored it (as the conversation does).

const RATE = 8;
const SILENCE_MS = DEFAULT_TURN_OPTIONS.endOfTurnSilenceMs;
/** Quieter than this (|sample|, about -60 dBFS) is not speech: where a clip really starts and ends. */
const AUDIBLE = 32;

/** A fixture cut to its first and last audible samples, as 16-bit samples at 8 kHz. */
function words(name: string): Int16Array {
  const clip = decodeUlaw(
    readFileSync(path.join(__dirname, '../../../../test/fixtures/voice', name)),
  );
  const first = clip.findIndex((sample) => Math.abs(sample) >= AUDIBLE);
  const last = clip.findLastIndex((sample) => Math.abs(sample) >= AUDIBLE);
  return clip.slice(first, last + 1);
}

const silence = (ms: number) => new Int16Array(ms * RATE);

/** Parts laid end to end; `ends` gives where each part ends (ms of audio). */
function join(...parts: Int16Array[]): { audio: Int16Array; ends: number[] } {
  const audio = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  const ends: number[] = [];
  let at = 0;
  for (const part of parts) {
    audio.set(part, at);
    at += part.length;
    ends.push(at / RATE);
  }
  return { audio, ends };
}

/** White noise at `rms` over the audio (a fixed seed: the same noise every run). */
function withNoise(audio: Int16Array, rms: number): Int16Array {
  let seed = 12_345;
  const uniform = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31 - 0.5;
  };
  // A uniform variable on [-0.5, 0.5) has an RMS of 1/√12.
  const scale = rms * Math.sqrt(12);
  return audio.map((sample) =>
    Math.max(-32_768, Math.min(32_767, Math.round(sample + scale * uniform()))),
  );
}

describe('TurnTracker on real speech (Silero VAD)', () => {
  const vad = new VoiceActivityDetector({ maxQueuedWindows: 1_000 });
  afterAll(() => vad.onModuleDestroy());

  /** Feeds the audio as a call hears it, 20 ms μ-law frames; the events, in order. */
  async function turnsOf(audio: Int16Array, tracker = new TurnTracker()): Promise<TurnEvent[]> {
    const events: TurnEvent[] = [];
    const stream = vad.open((probability, atMs) =>
      events.push(...tracker.update(probability, atMs)),
    );
    const ulaw = encodeUlaw(audio);
    for (let at = 0; at < ulaw.length; at += FRAME_BYTES) {
      const frame = ulaw.subarray(at, at + FRAME_BYTES);
      stream.push(frame);
      events.push(
        ...tracker.frame(
          rmsLevel(decodeUlaw(frame)),
          ((at + frame.length) * FRAME_MS) / FRAME_BYTES,
        ),
      );
      await vad.settled();
    }
    stream.close();
    return events;
  }

  /** Frames are 20 ms: where speech ends inside one is not known closer than that. */
  const expectWithinFrame = (actual: number, expected: number) =>
    expect(Math.abs(actual - expected)).toBeLessThan(FRAME_MS);

  const endsOfTurn = (events: TurnEvent[]) =>
    events.flatMap((event) => (event.type === 'end-of-turn' ? [event] : []));

  it.each([
    'opening-hours.ulaw',
    'call-back.ulaw',
    'yes-please.ulaw',
    'no-thank-you.ulaw',
    'stop-calling.ulaw',
    'sandbox-1-hello.ulaw',
    'sandbox-2-question.ulaw',
    'sandbox-3-goodbye.ulaw',
  ])('ends the turn within a frame of the end of speech + the silence: %s', async (name) => {
    const { audio, ends } = join(silence(500), words(name), silence(1_500));
    const spokenTo = ends[1];
    const [end, ...more] = endsOfTurn(await turnsOf(audio));
    expect(more).toEqual([]);
    // Silero calls speech for up to ~100 ms after these clips end: its windows alone ended the
    // turn 10–120 ms late.
    expectWithinFrame(end.atMs, spokenTo + SILENCE_MS);
    expectWithinFrame(end.speechEndedAtMs, spokenTo);
    expect(end.atMs - end.speechEndedAtMs).toBeGreaterThanOrEqual(SILENCE_MS);
  });

  it('keeps the turn through a pause shorter than the silence, and ends it after the last words', async () => {
    const { audio, ends } = join(
      silence(500),
      words('hello-world.ulaw'),
      silence(SILENCE_MS - 60),
      words('opening-hours.ulaw'),
      silence(1_500),
    );
    const turns = endsOfTurn(await turnsOf(audio));
    expect(turns).toHaveLength(1);
    expect(turns[0].speechStartedAtMs).toBeLessThan(ends[1]);
    expectWithinFrame(turns[0].atMs, ends[3] + SILENCE_MS);
  });

  it('ends two turns when the pause is as long as the silence', async () => {
    const { audio, ends } = join(
      silence(500),
      words('hello-world.ulaw'),
      silence(SILENCE_MS + 60),
      words('opening-hours.ulaw'),
      silence(1_500),
    );
    const turns = endsOfTurn(await turnsOf(audio));
    expect(turns).toHaveLength(2);
    expectWithinFrame(turns[0].atMs, ends[1] + SILENCE_MS);
    expectWithinFrame(turns[1].atMs, ends[3] + SILENCE_MS);
  });

  it('on a noisy line, ends the turn no later than the words + the silence, and keeps a short pause', async () => {
    const { audio, ends } = join(
      silence(1_000),
      words('call-back.ulaw'),
      silence(SILENCE_MS - 100),
      words('no-thank-you.ulaw'),
      silence(1_500),
    );
    // About -50 dBFS of hiss, 25–30 dB under the words.
    const turns = endsOfTurn(await turnsOf(withNoise(audio, 100)));
    expect(turns).toHaveLength(1);
    const late = turns[0].atMs - ends[3] - SILENCE_MS;
    // The words' last, faintest frames sink into the hiss: the end may be dated a little early.
    expect(late).toBeGreaterThan(-DEFAULT_TURN_OPTIONS.maxBackdateMs);
    expect(late).toBeLessThan(FRAME_MS);
  });
});
