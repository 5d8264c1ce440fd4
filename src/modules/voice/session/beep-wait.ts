import { BeepDetector } from '../audio/beep-detector';

/**
 * How long a voicemail message waits for the machine's beep after the stream starts. Greetings
 * run 5–15 s; past 20 s the beep was most likely missed (or the machine has none) and most
 * machines are recording by then, so the message is spoken anyway rather than lost to a
 * machine that gives up on silence.
 */
export const BEEP_WAIT_MS = 20_000;

/** `provider`: the provider reported the greeting's end (its beep) before the detector heard it. */
export type BeepWaitOutcome = 'beep' | 'provider' | 'timeout' | 'aborted';

/**
 * Listens to the caller's frames until the beep has ended, the provider says the greeting ended,
 * `BEEP_WAIT_MS` passed or `signal` aborts: whichever comes first.
 */
export class BeepWait {
  readonly outcome: Promise<BeepWaitOutcome>;
  private readonly detector = new BeepDetector();
  private settle: (outcome: BeepWaitOutcome) => void = () => undefined;

  constructor(signal: AbortSignal) {
    this.outcome = new Promise((resolve) => {
      const onAbort = () => this.settle('aborted');
      const timer = setTimeout(() => this.settle('timeout'), BEEP_WAIT_MS);
      signal.addEventListener('abort', onAbort, { once: true });
      this.settle = (outcome) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.settle = () => undefined;
        resolve(outcome);
      };
      if (signal.aborted) onAbort();
    });
  }

  /** One 20 ms μ-law frame of the caller's audio. */
  hear(ulaw: Uint8Array): void {
    if (this.detector.push(ulaw)) this.settle('beep');
  }

  /** The provider heard the machine's greeting end (Telnyx call.machine.greeting.ended). */
  providerHeard(): void {
    this.settle('provider');
  }
}
