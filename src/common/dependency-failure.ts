import { FAILED_DEPENDENCIES, type FailedDependency } from '@app/contracts';

/**
 * The outside services a live call depends on: speech-to-text, text-to-speech, the chat model,
 * the telephony provider's REST API and the call's media stream (the events' `failed_dependency`).
 */
export const CALL_DEPENDENCIES = FAILED_DEPENDENCIES;
export type CallDependency = FailedDependency;

/**
 * A dependency failed for good: its retries and its fallback engine (if one is configured) are
 * spent, so the call cannot go on with it. The session apologises and hangs up, and the call's
 * record says which dependency it was (`ended_by: service_failure`). The message names the
 * engine and what went wrong, never a key or what was sent.
 */
export class DependencyFailure extends Error {
  constructor(
    readonly dependency: CallDependency,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DependencyFailure';
  }
}
