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

  it('ends the turn on a tick when the windows stop coming', () => {
    const tracker = new TurnTracker();
    const speech = feed(tracker, 0.9, 320, 0);
    expect(tracker.tick(speech.at + 400)).toEqual([]);
    expect(tracker.tick(speech.at + 500).map((e) => e.type)).toEqual(['end-of-turn']);
  });

  it('refuses a silence threshold above the speech threshold', () => {
    expect(() => new TurnTracker({ speechThreshold: 0.3, silenceThreshold: 0.5 })).toThrow(
      RangeError,
    );
  });
});
