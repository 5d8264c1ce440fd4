import type { PacedStream } from '../audio/paced-stream';
import type { MediaOutput } from '../media/media-stream';
import type { HeardMarks } from './heard-marks';
import { type QueuedSentence, Reply } from './reply';
import type { TimedWord } from '../speech/speech-engines';
import type { TimedTurn } from './timed-turn';
import type { TurnObserver } from './voice-turn-observer';

/** What speaking a reply needs of the call session. */
export interface ReplyOutput {
  paced: PacedStream;
  output: Pick<MediaOutput, 'clear'>;
  /**
   * Synthesizes `text` into the paced stream; resolves once all of it is queued. `onAudio` runs
   * for each piece of audio queued, `onWords` for the words the engine timed (where it does).
   */
  speak(
    text: string,
    signal: AbortSignal,
    onAudio?: (chunk: Uint8Array) => void,
    onWords?: (words: TimedWord[]) => void,
  ): Promise<void>;
}

/**
 * The agent's replies, one at a time, spoken sentence by sentence with a mark after each, and
 * what the caller's speech does to them. Barge-in drops the reply's audio at once and pauses
 * it: a caller turn that turns out to be nothing (no words, a backchannel) resumes it from the
 * first sentence the caller did not hear (its mark never came back); a real turn cancels it,
 * and the stored agent turn keeps only the sentences heard.
 */
export class Replies {
  private current: Reply | undefined;

  constructor(
    private readonly session: ReplyOutput,
    private readonly heard: HeardMarks,
    /** Stores the agent's turn: what the caller heard of `reply`. */
    private readonly store: (reply: Reply, text: string) => void,
    private readonly observer?: TurnObserver,
    /** The reply's first audio was queued. */
    private readonly onFirstAudio?: (reply: Reply) => void,
  ) {}

  /** The reply in progress (maybe paused), if any. */
  get active(): Reply | undefined {
    return this.current;
  }

  start(name: string, trace?: TimedTurn): Reply {
    this.current = new Reply(name, trace);
    return this.current;
  }

  /**
   * Speaks `sentences` after those still to say, each followed by its mark; while the reply is
   * paused it waits for the verdict. Resolves once all are queued, or the reply was cancelled.
   * Called again while it speaks (the model writes on), it adds to the same loop, so the model's
   * stream is read while sentences play. Never rejects: a synthesis that fails fails the reply
   * (`reply.failure`).
   */
  say(reply: Reply, sentences: string[]): Promise<void> {
    reply.unsaid.push(...sentences);
    reply.speaking ??= this.speakAll(reply).finally(() => (reply.speaking = undefined));
    return reply.speaking;
  }

  private async speakAll(reply: Reply): Promise<void> {
    try {
      while (reply.unsaid.length > 0) {
        if (!(await reply.proceed())) return;
        const text = reply.unsaid[0];
        const signal = reply.sentenceSignal();
        const from = this.session.paced.position;
        const words: TimedWord[] = [];
        await this.session.speak(
          text,
          signal,
          () => this.firstAudio(reply),
          (timed) => words.push(...timed),
        );
        if (reply.cancelled) return;
        // Paused mid-sentence: it stays to be said again if the reply resumes.
        if (signal.aborted) continue;
        reply.unsaid.shift();
        // The mark pads the sentence's last partial frame: its audio ends on a whole frame.
        const sentence = reply.queued(text, from, Math.ceil(this.session.paced.position), words);
        this.session.paced.mark(sentence.mark);
      }
    } catch (error) {
      if (!reply.cancelled) reply.fail(error);
    }
  }

  private firstAudio(reply: Reply): void {
    if (reply.audible) return;
    reply.audible = true;
    reply.trace?.firstAudio();
    this.onFirstAudio?.(reply);
  }

  /**
   * Once every frame of the reply has gone out, stores all of it; `endMark` follows its last
   * sentence. A pause meanwhile waits for the verdict (and says the unheard part again). False
   * when the reply was cancelled instead.
   */
  async finish(reply: Reply, endMark?: string): Promise<boolean> {
    for (;;) {
      if (reply.cancelled) return false;
      if (endMark) this.session.paced.mark(endMark);
      await this.session.paced.drained();
      if (!reply.paused && reply.unsaid.length === 0 && !reply.cancelled) break;
      await this.say(reply, []);
    }
    this.done(reply, () => true);
    return true;
  }

  /** The caller talks over the reply: its audio is dropped and it waits for the verdict. */
  bargeIn(): void {
    const reply = this.current;
    if (!reply || reply.paused || reply.cancelled) return;
    this.clear();
    reply.pauseAt(this.heardBy(this.session.paced.sentPosition), this.session.paced.sentPosition);
  }

  /** The caller's turn was nothing (no words, a backchannel): a paused reply speaks on. */
  resume(): void {
    this.current?.resume();
  }

  /** Stops the reply for good (its audio too, unless a pause dropped it); keeps what was heard. */
  interrupt(): void {
    const reply = this.current;
    if (!reply) return;
    const played = this.session.paced.sentPosition;
    if (!reply.paused) {
      this.clear();
      reply.cutAt(this.heardBy(played), played);
    }
    reply.cancel();
    this.done(reply, this.heardBy(played));
  }

  /** The call ended: the reply stops, nothing more is stored. */
  stop(): void {
    this.current?.cancel();
    this.current = undefined;
  }

  /**
   * Whether the caller heard a sentence: its mark came back, or all of its audio had been sent
   * when `played` frames were (the provider plays what it is sent as it comes; the echo of a mark
   * is a round trip behind).
   */
  private heardBy(played: number): (sentence: QueuedSentence) => boolean {
    return (sentence) => this.heard.has(sentence.mark) || sentence.to <= played;
  }

  private clear(): void {
    this.observer?.bargedIn();
    this.session.paced.clear();
    this.session.output.clear();
  }

  private done(reply: Reply, kept: (sentence: QueuedSentence) => boolean): void {
    if (this.current === reply) this.current = undefined;
    const text = reply.text(kept);
    if (text !== '') this.store(reply, text);
  }
}
