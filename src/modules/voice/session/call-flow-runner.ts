import {
  type CallFlowCommand,
  type CallFlowEvent,
  type CallFlowState,
  type CallFlowTiming,
  deadlineOf,
  step,
} from './call-flow';

/**
 * Runs one call's state machine: each event goes through `step`, its commands go to `execute`
 * (which must not throw: what fails later comes back as an event), and the state's deadline is
 * kept on one timer. The call's other timers (its time limit, the media watchdog) are named
 * timers here too, so ending the call clears every one. Events raised while commands run are
 * handled after them, in order.
 */
export class CallFlowRunner {
  private current: CallFlowState;
  private readonly queue: CallFlowEvent[] = [];
  private running = false;
  private stopped = false;
  /** performance.now() when the current deadline passes; the timer may be set earlier. */
  private deadlineAt = Number.POSITIVE_INFINITY;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    initial: CallFlowState,
    private readonly timing: CallFlowTiming,
    private readonly execute: (command: CallFlowCommand) => void,
  ) {
    this.current = initial;
    this.arm();
  }

  get state(): CallFlowState {
    return this.current;
  }

  dispatch(event: CallFlowEvent): void {
    if (this.stopped) return;
    this.queue.push(event);
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        if (this.stopped) break;
        const result = step(this.current, next);
        const moved = result.state.phase !== this.current.phase;
        this.current = result.state;
        if (moved || result.rearm || next.type === 'deadline') this.arm();
        for (const command of result.commands) this.execute(command);
      }
    } finally {
      this.running = false;
    }
  }

  /** Raises `event` after `ms`, replacing the timer of the same name. */
  after(name: string, ms: number, event: CallFlowEvent | (() => void)): void {
    clearTimeout(this.timers.get(name));
    if (this.stopped) return;
    const fire = typeof event === 'function' ? event : () => this.dispatch(event);
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name);
        fire();
      }, ms),
    );
  }

  /** Clears every timer; later events are ignored. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.deadlineTimer);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * Sets the deadline of the current state from now. Progress moves it later many times a second
   * (every chunk of audio): the timer is only replaced when the deadline comes sooner, and a timer
   * that fires early sets itself again for the rest.
   */
  private arm(): void {
    const ms = deadlineOf(this.current, this.timing);
    if (ms === null) {
      this.deadlineAt = Number.POSITIVE_INFINITY;
      clearTimeout(this.deadlineTimer);
      this.deadlineTimer = undefined;
      return;
    }
    const at = performance.now() + ms;
    const sooner = at < this.deadlineAt;
    this.deadlineAt = at;
    if (sooner || !this.deadlineTimer) this.setDeadlineTimer(ms);
  }

  private setDeadlineTimer(ms: number): void {
    clearTimeout(this.deadlineTimer);
    this.deadlineTimer = setTimeout(() => {
      this.deadlineTimer = undefined;
      const left = this.deadlineAt - performance.now();
      if (left > 1) return this.setDeadlineTimer(left);
      this.deadlineAt = Number.POSITIVE_INFINITY;
      this.dispatch({ type: 'deadline' });
    }, ms);
  }
}
