import { HttpException } from '@nestjs/common';
import { ConfigError } from '../config';

/** What a shell script can rely on (documented in docs/operator.md). */
export const EXIT_OK = 0;
/** The command ran and failed: not found, conflict, a bad setting, the database down, ... */
export const EXIT_FAILURE = 1;
/** The command line itself is wrong: unknown command or option, missing or malformed argument. */
export const EXIT_USAGE = 2;

/** A malformed argument or option, found before anything was read or changed. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** How a failed command ends: the exit code and the one message stderr gets. */
export function failureOf(error: unknown): { exitCode: number; message: string } {
  if (error instanceof UsageError) return { exitCode: EXIT_USAGE, message: error.message };
  // The same messages the API answers with (404 Batch not found, 409 ..., 400 ...).
  if (error instanceof HttpException) return { exitCode: EXIT_FAILURE, message: error.message };
  if (error instanceof ConfigError) return { exitCode: EXIT_FAILURE, message: error.message };
  // Messages of our own plain Errors (the embedded database is in use, ...) say what to do; a
  // stack trace would not. Anything else is named by class only, as the API's 500 does.
  if (error instanceof Error && error.constructor === Error) {
    return { exitCode: EXIT_FAILURE, message: error.message };
  }
  const name = error instanceof Error ? error.name : typeof error;
  return { exitCode: EXIT_FAILURE, message: `Unexpected error (${name})` };
}
