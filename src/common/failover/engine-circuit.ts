/** How an engine stands: answering, failing (its circuit still closed), or skipped (open). */
export type EngineState = 'ok' | 'failing' | 'open';

export interface CircuitSettings {
  /** Failed turns in a row that open the circuit. */
  failures: number;
  /** How long an open circuit skips the engine before one turn probes it again. */
  coolDownMs: number;
}

/**
 * One engine's circuit breaker, shared by every call of the process. Closed, every turn goes to
 * the engine; after `failures` failed turns in a row it opens and turns skip it (to the fallback,
 * or straight to failure) for the cool-down, so no turn pays the timeout of an engine known to be
 * down. Then one turn at a time probes it: a success closes the circuit, a failure opens it for
 * another cool-down.
 */
export class EngineCircuit {
  private failures = 0;
  /** When the open circuit may be probed; undefined while closed. */
  private probeAt: number | undefined;
  private probing = false;
  private current: EngineState = 'ok';

  constructor(
    private readonly settings: CircuitSettings,
    private readonly onState: (state: EngineState) => void = () => undefined,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get state(): EngineState {
    return this.current;
  }

  /** Whether `take` would let work through now, without taking the probe. */
  get available(): boolean {
    return this.probeAt === undefined || (!this.probing && this.now() >= this.probeAt);
  }

  /**
   * Whether work may go to the engine now; past an open circuit's cool-down the caller's work is
   * the probe, and others are refused until it has ended.
   */
  take(): boolean {
    if (!this.available) return false;
    if (this.probeAt !== undefined) this.probing = true;
    return true;
  }

  succeeded(): void {
    this.failures = 0;
    this.probeAt = undefined;
    this.probing = false;
    this.set('ok');
  }

  failed(): void {
    this.failures += 1;
    if (this.probeAt !== undefined || this.failures >= this.settings.failures) {
      this.probeAt = this.now() + this.settings.coolDownMs;
      this.probing = false;
      this.set('open');
    } else {
      this.set('failing');
    }
  }

  /** Work let through ended neither way (the caller gave it up): a probe may be taken again. */
  released(): void {
    this.probing = false;
  }

  /** The engine could not be reached (at start): failing, without counting a failed turn. */
  unreachable(): void {
    if (this.current === 'ok') this.set('failing');
  }

  private set(state: EngineState): void {
    if (state === this.current) return;
    this.current = state;
    this.onState(state);
  }
}
