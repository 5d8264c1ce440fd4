import type { TurnTrace } from './voice-turn-observer';

/** A sentence queued for the caller, with the mark sent after it. */
export interface QueuedSentence {
  text: string;
  mark: string;
}

/**
 * One reply in progress (the greeting is one too): its sentences, queued or still to say, and
 * whether the caller's speech has paused it. Paused, its unheard sentences go back in front of
 * the ones still to say, so a resume speaks on from what the caller did not hear; cancelled, it
 * stops for good (barge-in that was a real turn, a newer caller turn, the end of the call).
 */
export class Reply {
  /** Sentences queued with their marks (after a pause: only those the caller heard). */
  readonly sentences: QueuedSentence[] = [];
  /** Sentences still to synthesize, in order. */
  readonly unsaid: string[] = [];
  readonly startedAt = new Date().toISOString();
  /** The loop speaking `unsaid`, while one runs (Replies.say). */
  speaking: Promise<void> | undefined;
  /** Why the reply could not be spoken (its synthesis failed for good), if it could not. */
  failure: unknown;
  /** Some of its audio has been queued. */
  audible = false;
  private readonly abort = new AbortController();
  /** Stops the sentence being synthesized when the reply is paused. */
  private sentence = new AbortController();
  private pause: { decided: Promise<boolean>; decide: (resume: boolean) => void } | undefined;
  private marks = 0;

  /**
   * @param name names the marks sent after its sentences: `${name}-1`, `${name}-2`…
   * @param trace the caller turn it answers (not for the greeting)
   */
  constructor(
    readonly name: string,
    readonly trace?: TurnTrace,
  ) {}

  /** Aborts with the reply: the model's stream, synthesis, waits. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get cancelled(): boolean {
    return this.abort.signal.aborted;
  }

  get paused(): boolean {
    return this.pause !== undefined;
  }

  /** The signal to synthesize the next sentence with: aborts on a pause or the cancel. */
  sentenceSignal(): AbortSignal {
    this.sentence = new AbortController();
    return AbortSignal.any([this.abort.signal, this.sentence.signal]);
  }

  /** A new mark for the next queued sentence (never one used before, even across a resume). */
  queued(text: string): QueuedSentence {
    const sentence = { text, mark: `${this.name}-${(this.marks += 1)}` };
    this.sentences.push(sentence);
    return sentence;
  }

  /**
   * The caller started talking over the reply (its audio is being cleared): keeps only the
   * sentences `heard` says were played, and puts the others back to be said again.
   */
  pauseAt(heard: (mark: string) => boolean): void {
    if (this.cancelled || this.pause) return;
    const firstUnheard = this.sentences.findIndex((sentence) => !heard(sentence.mark));
    if (firstUnheard >= 0) {
      const unheard = this.sentences.splice(firstUnheard);
      this.unsaid.unshift(...unheard.map((sentence) => sentence.text));
    }
    let decide: (resume: boolean) => void = () => undefined;
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    this.pause = { decided, decide };
    this.sentence.abort();
  }

  /** The interruption was nothing: the reply speaks on. */
  resume(): void {
    const pause = this.pause;
    this.pause = undefined;
    pause?.decide(true);
  }

  /** Its synthesis failed: it stops as cancelled, and says why. */
  fail(error: unknown): void {
    this.failure ??= error;
    this.cancel();
  }

  cancel(): void {
    this.abort.abort();
    const pause = this.pause;
    this.pause = undefined;
    pause?.decide(false);
  }

  /** Resolves true once the reply may go on (at once when not paused), false once cancelled. */
  async proceed(): Promise<boolean> {
    if (this.pause) return this.pause.decided;
    return !this.cancelled;
  }

  /** What the caller heard of it, as one text. */
  text(kept: (sentence: QueuedSentence) => boolean): string {
    return this.sentences
      .filter(kept)
      .map((sentence) => sentence.text)
      .join(' ');
  }
}
