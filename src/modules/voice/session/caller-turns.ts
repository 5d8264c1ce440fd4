import { ulawRmsLevel } from '../audio/g711';
import { DEFAULT_TURN_OPTIONS, TurnTracker, type TurnEvent } from '../audio/turn-tracker';
import type { VadStream } from '../audio/vad-stream';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import { FRAME_BYTES, FRAME_MS } from '../media/media-stream';
import type { RecognitionStream, SpeechToText } from '../speech/speech-engines';
import { isNoTurn, isUnfinishedUtterance } from './conversation-phrases';
import { TimedTurn } from './timed-turn';
import type { TurnObserver } from './voice-turn-observer';

/** A caller turn, in words. */
export interface CallerTurn {
  /** What they said: '' when nothing was recognised (a false interruption, with a backchannel). */
  words: string;
  /** When the turn (its first part, when it came in several) ended. */
  startedAt: string;
  /** From the turn's end to the reply's first audio, when observed. */
  trace?: TimedTurn;
}

/** What the caller's side of the conversation reports. */
export interface CallerTurnListener {
  speechStarted(): void;
  /** The caller stopped talking (end of turn): their words are being recognised. */
  speechEnded(): void;
  /** The caller has talked long enough to interrupt the agent. */
  bargeIn(): void;
  /** The caller finished a turn. */
  turn(turn: CallerTurn): void;
  /** The caller stopped mid-sentence: their words are held, and the agent must not talk over them. */
  holding(): void;
  recognitionFailed(error: unknown): void;
}

const joinWords = (...parts: Array<string | undefined>) =>
  parts.filter((part) => part !== undefined && part !== '').join(' ');

/**
 * The caller's side: every frame goes to the VAD (whose probabilities the turn tracker makes
 * into speech-start, barge-in and end-of-turn) and to the recogniser, which is asked for an
 * utterance's words once it ended. Words that stop mid-sentence ("my number is…") are held, not
 * answered: the caller has the unfinished allowance, from their end of speech, to go on; what
 * they say next joins the held words and is judged again, and when the allowance runs out in
 * silence the held words are the turn. A streaming recogniser's interim words are judged while
 * the caller speaks, so the tracker itself waits the longer silence before the end of turn.
 */
export class CallerTurns {
  private readonly tracker: TurnTracker;
  private readonly vad: VadStream;
  private readonly recognition: RecognitionStream;
  private readonly observer: TurnObserver | undefined;
  /** Audio time (ms) at the end of the caller frames heard: the VAD's windows share this clock. */
  private heardMs = 0;
  private held: { words: string; startedAt: string } | undefined;
  private holdTimer: NodeJS.Timeout | undefined;
  /** Utterances ended whose words are not judged yet: judged one after another, in order. */
  private pending = 0;
  private judged: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    services: {
      vad: Pick<VoiceActivityDetector, 'open'>;
      stt: SpeechToText;
      observer?: TurnObserver;
    },
    language: string,
    private readonly listener: CallerTurnListener,
    private readonly unfinishedSilenceMs = DEFAULT_TURN_OPTIONS.unfinishedSilenceMs,
  ) {
    this.tracker = new TurnTracker({ unfinishedSilenceMs });
    this.vad = services.vad.open((probability, atMs) =>
      this.report(this.tracker.update(probability, atMs)),
    );
    this.recognition = services.stt.open({ language });
    this.recognition.onWords?.((words) => {
      if (this.tracker.speaking)
        this.tracker.setUtteranceUnfinished(
          isUnfinishedUtterance(joinWords(this.held?.words, words)),
        );
    });
    this.observer = services.observer;
  }

  /** Whether the caller is in the middle of an utterance. */
  get speaking(): boolean {
    return this.tracker.speaking;
  }

  /** Whether words of an unfinished sentence wait for the rest. */
  get holding(): boolean {
    return this.held !== undefined;
  }

  hear(ulaw: Buffer): void {
    this.vad.push(ulaw);
    this.recognition.write(ulaw);
    // Each frame's level dates the end of speech and checks the silence allowance (TurnTracker).
    this.heardMs += (ulaw.length * FRAME_MS) / FRAME_BYTES;
    this.report(this.tracker.frame(ulawRmsLevel(ulaw), this.heardMs));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.holdTimer);
    this.vad.close();
    this.recognition.close();
  }

  private report(events: TurnEvent[]): void {
    for (const event of events) {
      if (event.type === 'speech-start') {
        clearTimeout(this.holdTimer);
        this.listener.speechStarted();
      }
      if (event.type === 'barge-in') this.listener.bargeIn();
      if (event.type === 'end-of-turn') this.endOfTurn(event);
    }
  }

  /** Asks for the utterance's words at once (the span and a short pre-roll); judges them in turn. */
  private endOfTurn(event: Extract<TurnEvent, { type: 'end-of-turn' }>): void {
    this.listener.speechEnded();
    const endedAt = Date.now();
    const startedAt = new Date(endedAt).toISOString();
    const trace = new TimedTurn(this.observer?.turnEnded());
    const words = this.recognition
      .finish(undefined, { startedAtMs: event.speechStartedAtMs, endedAtMs: event.speechEndedAtMs })
      .then(
        (text) => text.trim(),
        (error: unknown) => {
          this.listener.recognitionFailed(error);
          return '';
        },
      );
    this.pending += 1;
    this.judged = this.judged
      .then(async () => {
        const said = await words;
        this.pending -= 1;
        trace?.recognised();
        const silentMs = event.atMs - event.speechEndedAtMs + (Date.now() - endedAt);
        this.judge({ words: said, startedAt, trace }, this.unfinishedSilenceMs - silentMs);
      })
      // One failed judgement must not stop the chain: every later turn waits on it.
      .catch((error: unknown) => this.listener.recognitionFailed(error));
  }

  /** `leftMs`: what is left of the unfinished allowance after this utterance's end of speech. */
  private judge(utterance: CallerTurn, leftMs: number): void {
    const { words: said, trace } = utterance;
    if (this.closed) return trace?.end();
    const held = this.held;
    if (!held && isNoTurn(said)) return this.listener.turn(utterance);
    clearTimeout(this.holdTimer);
    this.held = undefined;
    // A noise or a backchannel while words are held adds nothing, and does not end the wait.
    const words = held && isNoTurn(said) ? held.words : joinWords(held?.words, said);
    const startedAt = held?.startedAt ?? utterance.startedAt;
    if (!isUnfinishedUtterance(words) || leftMs <= 0) {
      return this.listener.turn({ words, startedAt, trace });
    }
    trace?.end();
    this.held = { words, startedAt };
    this.listener.holding();
    // Already talking again: the end of that utterance judges the words anew.
    if (!this.tracker.speaking) this.holdTimer = setTimeout(() => this.release(), leftMs);
  }

  /** The allowance ran out in silence: the held words are the turn. */
  private release(): void {
    const held = this.held;
    if (!held || this.closed || this.tracker.speaking || this.pending > 0) return;
    this.held = undefined;
    const trace = new TimedTurn(this.observer?.turnEnded());
    trace?.recognised();
    this.listener.turn({ ...held, trace });
  }
}
