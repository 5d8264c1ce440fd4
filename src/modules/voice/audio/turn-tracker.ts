/**
 * Turns speech probabilities (one per VAD window, stamped with the audio time at the window's end)
 * into the events a call session acts on. Pure: time comes only from the stamps, so the same
 * probabilities always give the same events.
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
  /** The audio one probability covers (Silero: 512 samples at 16 kHz), for the first window. */
  windowMs: number;
}

export const DEFAULT_TURN_OPTIONS: TurnTrackerOptions = {
  speechThreshold: 0.5,
  silenceThreshold: 0.35,
  minSpeechMs: 200,
  endOfTurnSilenceMs: 500,
  unfinishedSilenceMs: 3_000,
  bargeInMs: 500,
  windowMs: 32,
};

export type TurnEvent =
  /** `atMs`: when the speech began (the first window above the threshold). */
  | { type: 'speech-start'; atMs: number }
  /** The caller has spoken long enough to interrupt the agent. */
  | { type: 'barge-in'; atMs: number }
  /** The caller finished: `speechEndedAtMs` is the last speech window, `atMs` when silence confirmed it. */
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
  private lastAt: number | undefined;
  private unfinished = false;

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

  /** Checks the silence allowance when no window arrived (the stream paused); `atMs` in audio time. */
  tick(atMs: number): TurnEvent[] {
    const events: TurnEvent[] = [];
    if (this.state.kind === 'speaking') this.endIfSilentLongEnough(atMs, events);
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
    if (atMs - this.state.lastVoicedAt < allowance) return;
    events.push({
      type: 'end-of-turn',
      atMs,
      speechStartedAtMs: this.state.since,
      speechEndedAtMs: this.state.lastVoicedAt,
    });
    this.state = { kind: 'silent' };
    this.unfinished = false;
  }
}
