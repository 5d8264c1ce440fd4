import { TurnTracker, type TurnEvent } from './turn-tracker';

const WINDOW_MS = 32;

/** Feeds `ms` of windows at one probability, continuing from `fromMs`; returns events and end. */
function feed(tracker: TurnTracker, probability: number, ms: number, fromMs: number) {
  const events: TurnEvent[] = [];
  let at = fromMs;
  while (at < fromMs + ms) {
    at += WINDOW_MS;
    events.push(...tracker.update(probability, at));
  }
  return { events, at };
}

type Part = { ms: number; probability: number; level: number };

/**
 * Audio as a call hears it, in parts of one speech probability and frame level: a frame every
 * 20 ms, each followed by the 32 ms windows it completed, `lagMs` late (a VAD behind the frames).
 */
function play(tracker: TurnTracker, parts: Part[], lagMs = 0): TurnEvent[] {
  let end = 0;
  const spans = parts.map((part) => ({ ...part, from: end, to: (end += part.ms) }));
  const at = (ms: number) => spans.find((span) => ms > span.from && ms <= span.to)!;
  const events: TurnEvent[] = [];
  let window = 0;
  for (let frame = 20; frame <= end; frame += 20) {
    events.push(...tracker.frame(at(frame).level, frame));
    for (; window + WINDOW_MS <= frame - lagMs; window += WINDOW_MS) {
      events.push(...tracker.update(at(window + WINDOW_MS).probability, window + WINDOW_MS));
    }
  }
  return events;
}

const SPEECH: Part = { ms: 400, probability: 0.9, level: 3_000 };
/** Silero's probability lingers for a few windows after the words end. */
const TAIL: Part = { ms: 96, probability: 0.4, level: 0 };
const silence = (ms: number, level = 0): Part => ({ ms, probability: 0.05, level });
const endsOfTurn = (events: TurnEvent[]) => events.filter((e) => e.type === 'end-of-turn');

describe('TurnTracker', () => {
  it('starts speech only after ~0.2 s above the threshold, dated from its first window', () => {
    const tracker = new TurnTracker();
    const first = feed(tracker, 0.9, 160, 0);
    expect(first.events).toEqual([]);
    const second = feed(tracker, 0.9, 64, first.at);
    expect(second.events).toEqual([{ type: 'speech-start', atMs: 0 }]);
    expect(tracker.speaking).toBe(true);
  });

  it('ignores a burst shorter than the minimum speech', () => {
    const tracker = new TurnTracker();
    const burst = feed(tracker, 0.9, 128, 0);
    const after = feed(tracker, 0.1, 2_000, burst.at);
    expect([...burst.events, ...after.events]).toEqual([]);
  });

  it('keeps speaking through dips between the two thresholds (hysteresis)', () => {
    const tracker = new TurnTracker();
    const speech = feed(tracker, 0.9, 320, 0);
    const dip = feed(tracker, 0.4, 1_000, speech.at);
    expect(dip.events.map((e) => e.type)).toEqual(['barge-in']);
    expect(tracker.speaking).toBe(true);
  });

  it('ends the turn after 0.5 s of silence, not before', () => {
    const tracker = new TurnTracker();
    const speech = feed(tracker, 0.9, 320, 0);
    const short = feed(tracker, 0.1, 448, speech.at);
    expect(short.events).toEqual([]);
    const rest = feed(tracker, 0.1, 64, short.at);
    expect(rest.events).toEqual([
      {
        type: 'end-of-turn',
        atMs: speech.at + 512,
        speechStartedAtMs: 0,
        speechEndedAtMs: speech.at,
      },
    ]);
    expect(tracker.speaking).toBe(false);
  });

  it('waits longer while the utterance is unfinished, then resets to the default', () => {
    const tracker = new TurnTracker({ unfinishedSilenceMs: 2_000 });
    const speech = feed(tracker, 0.9, 320, 0);
    tracker.setUtteranceUnfinished(true);
    const pause = feed(tracker, 0.1, 1_500, speech.at);
    expect(pause.events).toEqual([]);
    const end = feed(tracker, 0.1, 600, pause.at);
    expect(end.events.map((e) => e.type)).toEqual(['end-of-turn']);

    const next = feed(tracker, 0.9, 320, end.at);
    const silence = feed(tracker, 0.1, 544, next.at);
    expect(silence.events.map((e) => e.type)).toEqual(['end-of-turn']);
  });

  it('signals barge-in once per utterance after 0.5 s of speech (configurable)', () => {
    const tracker = new TurnTracker();
    const first = feed(tracker, 0.9, 448, 0);
    expect(first.events.map((e) => e.type)).toEqual(['speech-start']);
    const more = feed(tracker, 0.9, 2_000, first.at);
    expect(more.events).toEqual([{ type: 'barge-in', atMs: 512 }]);

    const quick = new TurnTracker({ bargeInMs: 200 });
    expect(feed(quick, 0.9, 224, 0).events.map((e) => e.type)).toEqual([
      'speech-start',
      'barge-in',
    ]);
  });

  it('counts the silence from the last loud frame, past the lingering windows, on every frame', () => {
    const events = play(new TurnTracker(), [SPEECH, TAIL, silence(1_000)]);
    // The windows alone: silence counted from the last voiced one (480), checked at 992.
    expect(endsOfTurn(events)).toEqual([
      { type: 'end-of-turn', atMs: 900, speechStartedAtMs: 0, speechEndedAtMs: 400 },
    ]);
  });

  it('holds the end while a loud frame the VAD has not scored yet may be the caller going on', () => {
    const tracker = new TurnTracker();
    const events = play(tracker, [SPEECH, silence(480), { ...SPEECH, ms: 1_000 }]);
    expect(endsOfTurn(events)).toEqual([]);
    expect(tracker.speaking).toBe(true);
  });

  it('dates the end at most maxBackdateMs before a window the VAD still calls speech', () => {
    const softly: Part = { ms: 600, probability: 0.6, level: 0 };
    const events = play(new TurnTracker(), [SPEECH, softly, silence(1_000)]);
    // The last voiced window ends at 992: 992 − 128 + 500, on the next frame.
    expect(endsOfTurn(events)).toEqual([
      { type: 'end-of-turn', atMs: 1_380, speechStartedAtMs: 0, speechEndedAtMs: 864 },
    ]);
  });

  it('does not date the end before a loud sound the VAD did not call speech', () => {
    const thud: Part = { ms: 40, probability: 0.05, level: 3_000 };
    const events = play(new TurnTracker(), [SPEECH, TAIL, thud, silence(1_000)]);
    expect(endsOfTurn(events)).toEqual([
      { type: 'end-of-turn', atMs: 980, speechStartedAtMs: 0, speechEndedAtMs: 480 },
    ]);
  });

  it("hears loud frames against the line's noise floor", () => {
    const hiss = 500;
    const fading: Part = { ...TAIL, level: 1.8 * hiss };
    const events = play(new TurnTracker(), [
      silence(1_000, hiss),
      SPEECH,
      fading,
      silence(1_000, hiss),
    ]);
    expect(endsOfTurn(events)).toEqual([
      { type: 'end-of-turn', atMs: 1_900, speechStartedAtMs: 992, speechEndedAtMs: 1_400 },
    ]);
  });

  it('leaves the end to the windows while the VAD lags far behind the frames', () => {
    const events = play(new TurnTracker(), [SPEECH, TAIL, silence(1_000)], 200);
    expect(endsOfTurn(events)).toEqual([
      { type: 'end-of-turn', atMs: 928, speechStartedAtMs: 0, speechEndedAtMs: 400 },
    ]);
  });

  it('refuses a silence threshold above the speech threshold', () => {
    expect(() => new TurnTracker({ speechThreshold: 0.3, silenceThreshold: 0.5 })).toThrow(
      RangeError,
    );
  });
});
