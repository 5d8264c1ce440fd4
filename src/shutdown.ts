import type { LoggerService } from '@nestjs/common';

const SHUTDOWN_TIMEOUT_MS = 30_000;

/**
 * On SIGTERM or SIGINT: stop accepting connections, let in-flight requests and jobs finish
 * (app.close() runs every shutdown hook), then exit 0; exit 1 if that takes longer than 30 s.
 */
export function closeOnSignals(app: { close(): Promise<void> }, logger: LoggerService): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: draining requests and jobs`, 'Switchboard');
    const timer = setTimeout(() => {
      logger.error('Shutdown did not finish in time; exiting', undefined, 'Switchboard');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(
          `Shutdown failed: ${error instanceof Error ? error.message : 'unknown error'}`,
        );
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
