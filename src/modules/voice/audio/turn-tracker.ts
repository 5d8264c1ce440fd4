/**
 * Turns speech probabilities (one per VAD window, stamped with the audio time at the window's end)
 * and the level of each caller frame into the events a call session acts on. Pure: time comes
 * only from the stamps, so the same input always gives the same events.
 *
 * Defaults follow what LiveKit Agents and Pipecat settled on (docs: voice-runtime research §4):
 * speech starts after ~0.2 s above the threshold, the turn ends after ≥ 0.5 s of silence (several
 * seconds when the session judges the sentence unfinished), and the caller interrupts the agent
 * only after ≥ 0.5 s of speech, so a cough or an "uh" does not cut it off.
 */
export interface TurnTrackerOptions {
  /** A window at or above this probability is speech. */
  speechThreshold: number;
  /** Once speaking, a window must fall below this to count as silence (hysteresis). */
  silenceThreshold: number;
  /** Speech held this long (ms) before `speech-start`; shorter bursts are noise. */
  minSpeechMs: number;
  /** Silence (ms) after speech that ends the turn. */
  endOfTurnSilenceMs: number;
  /** Silence (ms) that ends the turn while the session says the utterance is unfinished. */
  unfinishedSilenceMs: number;
  /** Speech (ms) within one utterance before `barge-in`. */
  bargeInMs: number;
  /** The audio one probability covers (Silero: 256 samples at 8 kHz), for the first window. */
  windowMs: number;
  /**
   * How much earlier than the last voiced window the frame levels may date the end of speech.
   * Silero's probability lingers above `silenceThreshold` for up to ~100 ms after the words end
   * (its recurrent state), and a window ends up to 32 ms after them; this bounds how far a quiet
   * ending the VAD still calls speech can be cut short.
   */
  maxBackdateMs: number;
}

export const DEFAULT_TURN_OPTIONS: TurnTrackerOptions = {
  speechThreshold: 0.5,
  silenceThreshold: 0.35,
  minSpeechMs: 200,
  endOfTurnSilenceMs: 500,
  unfinishedSilenceMs: 3_000,
  bargeInMs: 500,
  windowMs: 32,
  maxBackdateMs: 128,
};

/** A frame is loud above this RMS (16-bit, about -54 dBFS) even on a digitally silent line… */
const MIN_LOUD_LEVEL = 64;
/** …and when the words rise ~5 dB over the line's noise: RMS twice the noise floor's. */
const LOUD_OVER_FLOOR = 2;
/** The noise floor is the quietest frame of the last one or two blocks of this many frames. */
const FLOOR_BLOCK_FRAMES = 25;
/**
 * Frames alone end a turn only while the VAD is at most this far behind them (it is ≤ ~55 ms
 * behind when it keeps up); further behind, its windows decide. Within it, quiet frames of soft
 * speech the VAD still calls voiced cannot end a turn: its voiced windows keep the end of speech
 * within this + a window + `maxBackdateMs` of the frame, well under the allowance.
 */
const MAX_VAD_LAG_MS = 160;

export type TurnEvent =
  /** `atMs`: when the speech began (the first window above the threshold). */
  | { type: 'speech-start'; atMs: number }
  /** The caller has spoken long enough to interrupt the agent. */
  | { type: 'barge-in'; atMs: number }
  /**
   * The caller finished: `speechEndedAtMs` is the end of the last loud frame of the utterance (or
   * of its last speech window, when the levels cannot tell), `atMs` when silence confirmed it.
   */
  | { type: 'end-of-turn'; atMs: number; speechStartedAtMs: number; speechEndedAtMs: number };

type State =
  | { kind: 'silent' }
  /** Above the threshold but not yet long enough to call it speech. */
  | { kind: 'maybe-speech'; since: number }
  | {
      kind: 'speaking';
      since: number;
      voicedMs: number;
      lastVoicedAt: number;
      bargedIn: boolean;
    };

export class TurnTracker {
  private readonly options: TurnTrackerOptions;
  private state: State = { kind: 'silent' };
  /** The end of the last window scored. */
  private lastAt: number | undefined;
  private unfinished = false;
  private readonly floor = new NoiseFloor();
  /** The end of the last frame loud enough to be words rather than line noise. */
  private lastLoudAt: number | undefined;

  constructor(options: Partial<TurnTrackerOptions> = {}) {
    this.options = { ...DEFAULT_TURN_OPTIONS, ...options };
    if (this.options.silenceThreshold > this.options.speechThreshold) {
      throw new RangeError('silenceThreshold must not exceed speechThreshold');
    }
  }

  /** Whether the caller is in the middle of an utterance (after `speech-start`, before its end). */
  get speaking(): boolean {
    return this.state.kind === 'speaking';
  }

  /**
   * The session's judgement of what was said so far: an unfinished sentence ("my number is…")
   * gets the longer silence allowance before the turn ends. Reset by each end of turn.
   */
  setUtteranceUnfinished(unfinished: boolean): void {
    this.unfinished = unfinished;
  }

  /** One VAD window: its speech probability and the audio time (ms) at its end. */
  update(probability: number, atMs: number): TurnEvent[] {
    const elapsed =
      this.lastAt === undefined ? this.options.windowMs : Math.max(0, atMs - this.lastAt);
    this.lastAt = atMs;
    const state = this.state;
    const events: TurnEvent[] = [];
    switch (state.kind) {
      case 'silent':
        if (probability >= this.options.speechThreshold) {
          this.state = { kind: 'maybe-speech', since: atMs - elapsed };
          this.confirmSpeech(atMs, events);
        }
        break;
      case 'maybe-speech':
        if (probability >= this.options.speechThreshold) this.confirmSpeech(atMs, events);
        else this.state = { kind: 'silent' };
        break;
      case 'speaking':
        if (probability >= this.options.silenceThreshold) {
          state.voicedMs += elapsed;
          state.lastVoicedAt = atMs;
          if (!state.bargedIn && state.voicedMs >= this.options.bargeInMs) {
            state.bargedIn = true;
            events.push({ type: 'barge-in', atMs });
          }
        } else {
          this.endIfSilentLongEnough(atMs, events);
        }
        break;
    }
    return events;
  }

  /**
   * One caller frame: its RMS level (16-bit samples) and the audio time (ms) at its end, on the
   * windows' clock. Loud frames date the end of speech to the frame, ahead of the VAD's lingering
   * probability; and the silence allowance is checked on every frame, not only every window.
   */
  frame(level: number, atMs: number): TurnEvent[] {
    if (level >= Math.max(MIN_LOUD_LEVEL, LOUD_OVER_FLOOR * this.floor.level)) {
      this.lastLoudAt = atMs;
    }
    if (this.state.kind === 'silent') this.floor.add(level);
    const events: TurnEvent[] = [];
    // Frames after the last window scored must be quiet: a loud one may be the caller going on.
    const scoredTo = this.lastAt ?? Number.NEGATIVE_INFINITY;
    if ((this.lastLoudAt ?? scoredTo) <= scoredTo && atMs - scoredTo <= MAX_VAD_LAG_MS) {
      this.endIfSilentLongEnough(atMs, events);
    }
    return events;
  }

  private confirmSpeech(atMs: number, events: TurnEvent[]): void {
    if (this.state.kind !== 'maybe-speech') return;
    const since = this.state.since;
    const heldMs = atMs - since;
    if (heldMs < this.options.minSpeechMs) return;
    this.state = { kind: 'speaking', since, voicedMs: heldMs, lastVoicedAt: atMs, bargedIn: false };
    events.push({ type: 'speech-start', atMs: since });
    if (heldMs >= this.options.bargeInMs) {
      this.state.bargedIn = true;
      events.push({ type: 'barge-in', atMs });
    }
  }

  private endIfSilentLongEnough(atMs: number, events: TurnEvent[]): void {
    if (this.state.kind !== 'speaking') return;
    const allowance = this.unfinished
      ? this.options.unfinishedSilenceMs
      : this.options.endOfTurnSilenceMs;
    const endedAt = this.speechEndedAt(this.state);
    if (atMs - endedAt < allowance) return;
    events.push({
      type: 'end-of-turn',
      atMs,
      speechStartedAtMs: this.state.since,
      speechEndedAtMs: endedAt,
    });
    this.state = { kind: 'silent' };
    this.unfinished = false;
  }

  /**
   * The last loud frame of the utterance, when the VAD's windows called speech a little after it
   * (its tail); else the last voiced window: the levels never saw this utterance, or they heard
   * something loud after it that the VAD did not call speech.
   */
  private speechEndedAt(state: Extract<State, { kind: 'speaking' }>): number {
    const loudAt = this.lastLoudAt;
    if (loudAt === undefined || loudAt <= state.since || loudAt > state.lastVoicedAt) {
      return state.lastVoicedAt;
    }
    return Math.max(loudAt, state.lastVoicedAt - this.options.maxBackdateMs);
  }
}

/**
 * The line's level between utterances: the quietest frame of the last 0.5–1 s of them (minimum
 * statistics), so the first frames of an utterance, heard before the VAD confirms it, do not
 * raise it, while a line that gets noisier is followed within a second.
 */
class NoiseFloor {
  private previous = Number.POSITIVE_INFINITY;
  private current = Number.POSITIVE_INFINITY;
  private frames = 0;

  /** 0 until a whole block was heard: a caller talking from the start has not set it. */
  get level(): number {
    return Number.isFinite(this.previous) ? Math.min(this.previous, this.current) : 0;
  }

  add(level: number): void {
    this.current = Math.min(this.current, level);
    if (++this.frames < FLOOR_BLOCK_FRAMES) return;
    this.previous = this.current;
    this.current = Number.POSITIVE_INFINITY;
    this.frames = 0;
  }
}
