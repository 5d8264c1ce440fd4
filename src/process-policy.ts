import { describeUnknown } from './common/describe-error';

/** Faults this process has survived or stopped for, since it started (`/metrics` reads them). */
export interface ProcessFaults {
  unhandledRejections: number;
  uncaughtExceptions: number;
}

const faults: ProcessFaults = { unhandledRejections: 0, uncaughtExceptions: 0 };

export function processFaults(): Readonly<ProcessFaults> {
  return faults;
}

export interface ProcessPolicyOptions {
  logger: { error(message: string): void };
  /**
   * Stops the process the way SIGTERM does (drain, close) and makes it exit non-zero: the one
   * hook into shutdown, called once per uncaught exception.
   */
  stop: (reason: string) => void;
}

type Target = Pick<NodeJS.Process, 'on' | 'off'>;

/**
 * The process's answer to an error nobody caught. A rejected promise nobody handles is logged
 * (its class and where it was thrown: describeUnknown, never its message, which may carry a
 * secret), counted, and survived: one failed call or request must not cut every call on the
 * process. An uncaught exception is logged and counted too, but the process may now be in a
 * state nobody planned for: it stops through the shutdown path, as on SIGTERM, and exits
 * non-zero. Returns a function that removes the listeners.
 */
export function installProcessPolicy(
  { logger, stop }: ProcessPolicyOptions,
  target: Target = process,
): () => void {
  const onRejection = (reason: unknown) => {
    faults.unhandledRejections += 1;
    logger.error(
      `Unhandled promise rejection (survived): ${JSON.stringify(describeUnknown(reason))}`,
    );
  };
  const onException = (error: unknown) => {
    faults.uncaughtExceptions += 1;
    logger.error(`Uncaught exception, stopping: ${JSON.stringify(describeUnknown(error))}`);
    stop('Uncaught exception');
  };
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}
