import { BeepWait, type BeepWaitOutcome } from './beep-wait';

/**
 * What the call's provider said of an answering machine (a verdict, the end of its greeting),
 * possibly before the call was even loaded, and the wait for the machine's beep: heard by the
 * local detector in the caller's audio or reported by the provider, whichever first.
 */
export class MachineWatch {
  /** A provider said a machine answered. */
  machine = false;
  /** The provider heard the machine's greeting end. */
  private providerBeep = false;
  private beepWait: BeepWait | undefined;

  /** A provider's verdict, or its news that the greeting ended (only a machine's ends in a beep). */
  signal(signal: 'machine' | 'greeting-ended'): void {
    this.machine = true;
    if (signal !== 'greeting-ended') return;
    this.providerBeep = true;
    this.beepWait?.providerHeard();
  }

  hear(ulaw: Uint8Array): void {
    this.beepWait?.hear(ulaw);
  }

  /** Resolves once the beep has been heard or reported, the bound passed, or `abort` fired. */
  async beep(abort: AbortSignal): Promise<BeepWaitOutcome> {
    this.beepWait = new BeepWait(abort);
    if (this.providerBeep) this.beepWait.providerHeard();
    const outcome = await this.beepWait.outcome;
    this.beepWait = undefined;
    return outcome;
  }
}
