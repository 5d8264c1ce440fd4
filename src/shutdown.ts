import type { LoggerService } from '@nestjs/common';

/** How long closing the app (its requests, jobs and connections) may take after the drain. */
const CLOSE_TIMEOUT_MS = 30_000;

interface Closable {
  close(): Promise<void>;
  /** Writes the logs Nest buffers until the app is initialized (a start cut short never is). */
  flushLogs?(): void;
}

/** The process's drain (ProcessDrain): live calls end before the app closes. */
export interface Drain {
  run(): Promise<void>;
  /** The longest it may take (the grace period and the winding up of what is left). */
  boundMs: number;
}

/**
 * SIGTERM or SIGINT: drain first (no new work; live calls end or are wound up within their grace
 * period, ProcessDrain), then stop accepting connections, let in-flight requests and jobs finish
 * (app.close() runs every shutdown hook), then exit 0; exit 1 if the drain and the close take
 * longer than their bound. fail() stops the same way and exits 1. Listens from the moment it is
 * created, so a signal during start (migrations) is not the default kill: the start finishes,
 * the app does not listen, and it closes as above.
 */
export class ShutdownOnSignals {
  private app: Closable | undefined;
  private drain: Drain | undefined;
  private signal: NodeJS.Signals | undefined;
  private closing = false;
  private exitCode = 0;

  constructor(private readonly logger: LoggerService) {
    process.once('SIGTERM', this.onSignal);
    process.once('SIGINT', this.onSignal);
  }

  /** True once a signal came: the caller skips what is left of the start (listening). */
  get received(): boolean {
    return this.signal !== undefined;
  }

  /** The app is built: a signal closes it, and one that came while it was starting does now. */
  attach(app: Closable, drain?: Drain): void {
    this.app = app;
    this.drain = drain;
    if (this.signal) this.close(app, `${this.signal} received`);
  }

  /**
   * A fault (an uncaught exception, src/process-policy.ts): the same drain as a signal, then exit
   * 1 however the close goes. During the start there is nothing to drain: exit 1 at once.
   */
  fail(reason: string): void {
    this.exitCode = 1;
    if (this.app) this.close(this.app, reason);
    else process.exit(1);
  }

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.signal ??= signal;
    if (this.app) this.close(this.app, `${signal} received`);
    else this.logger.log(`${signal} received while starting: stopping once started`, 'Switchboard');
  };

  private close(app: Closable, why: string): void {
    if (this.closing) return;
    this.closing = true;
    app.flushLogs?.();
    this.logger.log(`${why}: draining calls, requests and jobs`, 'Switchboard');
    const timer = setTimeout(
      () => {
        this.logger.error('Shutdown did not finish in time; exiting', undefined, 'Switchboard');
        process.exit(1);
      },
      (this.drain?.boundMs ?? 0) + CLOSE_TIMEOUT_MS,
    );
    timer.unref();
    const drained = this.drain ? this.drain.run() : Promise.resolve();
    drained
      .then(() => app.close())
      .then(
        () => {
          this.logger.log('Stopped', 'Switchboard');
          process.exit(this.exitCode);
        },
        (error: unknown) => {
          this.logger.error(
            `Shutdown failed: ${error instanceof Error ? error.message : 'unknown error'}`,
            undefined,
            'Switchboard',
          );
          process.exit(1);
        },
      );
  }
}
