import type { AnswerWatch } from './answer-watch';

/** A recogniser of a call's first seconds (SpeechToText.transcribeGreeting). */
export type GreetingRecogniser = (ulaw: Buffer, signal: AbortSignal) => Promise<string>;

/** Voicemail greetings and menus run to 10–15 s; what is past this is not kept. */
const MAX_FRAMES = (20 * 1000) / 20;

/**
 * AnswerWatch's words where the call's recogniser has a model of what answers a call says (the
 * offline engine): the callee's audio is kept until a verdict, and each time a greeting too long
 * for a person pauses, all of it so far is transcribed against that model (its words help each
 * other). Words of a greeting that went on before they came are dropped for the later ones; a
 * failed transcription leaves the verdict to the greeting's length.
 */
export class GreetingWords {
  private frames: Buffer[] = [];
  private asked = 0;

  constructor(
    private readonly watch: AnswerWatch,
    private readonly recognise: GreetingRecogniser,
    private readonly signal: AbortSignal,
    private readonly failed: (error: unknown) => void,
  ) {
    watch.onGreetingEnded(() => this.transcribe());
  }

  hear(ulaw: Uint8Array): void {
    if (this.watch.verdict) {
      this.frames = [];
      return;
    }
    if (this.frames.length < MAX_FRAMES) this.frames.push(Buffer.from(ulaw));
  }

  private transcribe(): void {
    const ask = (this.asked += 1);
    this.recognise(Buffer.concat(this.frames), this.signal).then(
      (words) => {
        if (ask === this.asked && words.trim() !== '' && !this.signal.aborted)
          this.watch.heard(words);
      },
      (error: unknown) => this.failed(error),
    );
  }
}
