import type { Logger } from '@nestjs/common';
import { describeUnknown } from './describe-error';

/**
 * Background housekeeping that runs every so often: one pass at a time (a call while one runs
 * joins it), failures logged rather than thrown, the pass in progress awaited at shutdown.
 */
export class PeriodicTask<T> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<T> | undefined;

  constructor(
    private readonly pass: () => Promise<T>,
    private readonly logger: Logger,
    /** Names the task in the failure log line. */
    private readonly what: string,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.run().catch((error: unknown) =>
        this.logger.warn(`${this.what} failed: ${JSON.stringify(describeUnknown(error))}`),
      );
    }, intervalMs);
    this.timer.unref();
  }

  /** One pass now (tests call it instead of waiting for the interval). */
  run(): Promise<T> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
