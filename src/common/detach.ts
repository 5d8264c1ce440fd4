import { describeUnknown } from './describe-error';

export interface DetachOptions {
  /** Names the work in the log line: `<what> failed: {"error":…,"at":…}`. */
  what: string;
  logger: { warn(message: string): void };
  /**
   * The failure as an event for whoever must know (a request still waiting, a call's state
   * machine): called once, after the failure is logged.
   */
  onFailure?: (error: unknown) => void;
}

/**
 * Starts work nobody awaits (the one way to write `void promise()`): its failure is caught,
 * logged by class and place (describeUnknown, never the message) and handed to `onFailure`, so
 * it can never become an unhandled rejection. Given a function, a synchronous throw is a failure
 * too.
 */
export function detach(
  work: PromiseLike<unknown> | (() => PromiseLike<unknown>),
  { what, logger, onFailure }: DetachOptions,
): void {
  const fail = (error: unknown) => {
    logger.warn(`${what} failed: ${JSON.stringify(describeUnknown(error))}`);
    if (!onFailure) return;
    try {
      onFailure(error);
    } catch (failure) {
      logger.warn(
        `${what}: its failure handler failed: ${JSON.stringify(describeUnknown(failure))}`,
      );
    }
  };
  let started: PromiseLike<unknown>;
  try {
    started = typeof work === 'function' ? work() : work;
  } catch (error) {
    fail(error);
    return;
  }
  Promise.resolve(started).then(() => undefined, fail);
}
