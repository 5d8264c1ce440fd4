import { FRAME_MS } from '../media/media-stream';
import type { TimedWord } from '../speech/speech-engines';
import type { TimedTurn } from './timed-turn';

/** A sentence queued for the caller, with the mark sent after it. */
export interface QueuedSentence {
  text: string;
  mark: string;
  /** Where its audio sits in the call's outbound stream, in frames (PacedStream.position). */
  readonly from: number;
  readonly to: number;
  /** The engine's timing of its words, when the engine gives one (ElevenLabs); else empty. */
  readonly words: readonly TimedWord[];
}

/**
 * The words of `sentence` the caller heard when `played` frames of the stream had been played,
 * followed by a dash when it was cut; '' when none. The engine's word timings say which words
 * ended within the played audio where it gave them (for all its words, in order, within the
 * sentence's audio); otherwise the words are timed by their length in characters over it.
 */
export function heardPart(sentence: QueuedSentence, played: number): string {
  const length = sentence.to - sentence.from;
  const share = length > 0 ? Math.min(1, Math.max(0, (played - sentence.from) / length)) : 0;
  if (share >= 1) return sentence.text;
  const words = sentence.text.split(/\s+/).filter((word) => word !== '');
  const heard =
    sentence.words.length === words.length && timedWithin(sentence.words, length * FRAME_MS)
      ? sentence.words.filter((word) => word.endMs <= (played - sentence.from) * FRAME_MS).length
      : heardByLength(sentence.text, words, share * sentence.text.length);
  const kept = words.slice(0, heard);
  return kept.length === 0 ? '' : `${kept.join(' ').replace(/[,;:.!?]+$/, '')}—`;
}

/** Word ends that go forward and stay within the audio (a little past its end is rounding). */
function timedWithin(words: readonly TimedWord[], audioMs: number): boolean {
  let last = 0;
  for (const { endMs } of words) {
    if (!(endMs >= last) || endMs > audioMs + AUDIO_END_SLACK_MS) return false;
    last = endMs;
  }
  return true;
}

const AUDIO_END_SLACK_MS = 250;

/** How many of `words` end within the first `heardChars` characters of `text`. */
function heardByLength(text: string, words: string[], heardChars: number): number {
  let end = 0;
  let count = 0;
  for (const word of words) {
    end = text.indexOf(word, end) + word.length;
    if (end > heardChars) break;
    count += 1;
  }
  return count;
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
  /** What the caller heard of the sentence the clear cut, when a clear cut one. */
  private cut = '';

  /**
   * @param name names the marks sent after its sentences: `${name}-1`, `${name}-2`…
   * @param trace the caller turn it answers (not for the greeting)
   */
  constructor(
    readonly name: string,
    readonly trace?: TimedTurn,
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

  /**
   * A new mark for the next queued sentence (never one used before, even across a resume); its
   * audio runs from `from` to `to` in the stream.
   */
  queued(text: string, from: number, to: number, words: TimedWord[] = []): QueuedSentence {
    const sentence = { text, mark: `${this.name}-${(this.marks += 1)}`, from, to, words };
    this.sentences.push(sentence);
    return sentence;
  }

  /**
   * The caller started talking over the reply (its audio is being cleared, `played` frames of the
   * stream played): keeps only the sentences `heard` says were played, and what was heard of the
   * one cut (cutAt), and puts the others back to be said again.
   */
  pauseAt(heard: (sentence: QueuedSentence) => boolean, played: number): void {
    if (this.cancelled || this.pause) return;
    const firstUnheard = this.cutAt(heard, played);
    if (firstUnheard >= 0) {
      const unheard = this.sentences.splice(firstUnheard);
      this.unsaid.unshift(...unheard.map((sentence) => sentence.text));
    }
    let decide: (resume: boolean) => void = () => undefined;
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    this.pause = { decided, decide };
    this.sentence.abort();
  }

  /**
   * Its audio was cleared with `played` frames of the stream played: the first sentence `heard`
   * does not know of keeps the words the caller heard (heardPart). Returns that sentence's index.
   */
  cutAt(heard: (sentence: QueuedSentence) => boolean, played: number): number {
    const first = this.sentences.findIndex((sentence) => !heard(sentence));
    this.cut = first >= 0 ? heardPart(this.sentences[first], played) : '';
    return first;
  }

  /** The interruption was nothing: the reply speaks on (the cut sentence is said again whole). */
  resume(): void {
    this.cut = '';
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

  /** What the caller heard of it, as one text: the sentences `kept`, then the cut one's words. */
  text(kept: (sentence: QueuedSentence) => boolean): string {
    return [...this.sentences.filter(kept).map((sentence) => sentence.text), this.cut]
      .filter((text) => text !== '')
      .join(' ');
  }
}
