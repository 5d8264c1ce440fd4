import { performance } from 'node:perf_hooks';

/**
 * Sends queued frames one per `frameMs` at absolute target times (start + n × frameMs), so a late
 * timer does not push every later frame back. When the queue runs dry (synthesis slower than
 * real time) the clock restarts at the next frame instead of bursting to catch up.
 */
export class FramePacer {
  private readonly queue: Buffer[] = [];
  private timer: NodeJS.Timeout | undefined;
  private target = 0;
  private idle: Array<() => void> = [];

  constructor(
    private readonly send: (frame: Buffer) => void,
    private readonly frameMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(frame: Buffer): void {
    this.queue.push(frame);
    if (!this.timer) this.schedule();
  }

  /** Resolves once every queued frame has been sent (or the pacer stopped). */
  drained(): Promise<void> {
    if (!this.timer && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Drops what is queued; nothing more is sent. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
    this.settle();
  }

  private schedule(): void {
    if (this.queue.length === 0) {
      this.timer = undefined;
      this.settle();
      return;
    }
    const now = this.now();
    if (this.target < now - this.frameMs) this.target = now;
    this.timer = setTimeout(this.tick, Math.max(0, this.target - now));
  }

  private readonly tick = (): void => {
    const frame = this.queue.shift();
    if (frame) this.send(frame);
    this.target += this.frameMs;
    this.schedule();
  };

  private settle(): void {
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }
}
