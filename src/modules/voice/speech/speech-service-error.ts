import { parseRetryAfter } from '../../../http/retry-after';

/**
 * A speech service refused or failed a request; the message names the engine, never the key.
 * `retryable`: another try may succeed (no connection, a timeout, a cut stream, 429, 5xx).
 */
export class SpeechServiceError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
    /** How long the service asked us to wait before another try (Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'SpeechServiceError';
  }
}

/**
 * The error of an HTTP answer that is not 2xx: 401/403 say the key is the problem; 408, 429 and
 * 5xx are worth another try, after the Retry-After the answer carried.
 */
export function httpStatusError(
  engine: string,
  status: number,
  retryAfter?: string,
): SpeechServiceError {
  if (status === 401 || status === 403) {
    return new SpeechServiceError(`${engine} refused the API key (HTTP ${status})`);
  }
  const retryable = status === 408 || status === 429 || status >= 500;
  return new SpeechServiceError(
    `${engine} answered HTTP ${status}`,
    retryable,
    retryable ? parseRetryAfter(retryAfter, new Date()) : undefined,
  );
}

/** A request that got no answer: no connection, a reset, a timeout. Worth another try. */
export function unreachableError(engine: string, error: unknown): SpeechServiceError {
  if (error instanceof SpeechServiceError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const why =
    (error as { name?: unknown } | undefined)?.name === 'TimeoutError'
      ? 'timed out'
      : typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)
        ? code
        : 'connection failed';
  return new SpeechServiceError(`${engine} is unreachable (${why})`, true);
}
