/**
 * An engine's own error (SpeechServiceError, LlmError): whether another try may succeed, and
 * a message that names the engine and what went wrong, never a key or what was sent.
 */
export interface EngineError extends Error {
  readonly retryable: boolean;
  /** How long the service asked us to wait (Retry-After), in ms. */
  readonly retryAfterMs?: number;
}

/** A try that did not answer in the time it had. */
export class DeadlinePassed extends Error {
  readonly retryable = true;

  constructor(ms: number) {
    super(`no answer within ${Math.round(ms)} ms`);
    this.name = 'DeadlinePassed';
  }
}

// Connection failures worth a second try: the next one may get another connection or server.
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function isEngineError(error: unknown): error is EngineError {
  return (
    error instanceof Error && typeof (error as { retryable?: unknown }).retryable === 'boolean'
  );
}

/** Whether another try may succeed, and after how long the service asked us to wait. */
export function transience(error: unknown): { transient: boolean; retryAfterMs?: number } {
  if (isEngineError(error)) return { transient: error.retryable, retryAfterMs: error.retryAfterMs };
  if (!(error instanceof Error)) return { transient: false };
  const code = (error as { code?: unknown }).code;
  const transient =
    error.name === 'TimeoutError' || (typeof code === 'string' && TRANSIENT_CODES.has(code));
  return { transient };
}

/**
 * What went wrong, in words fit for a log line and a call's record: an engine error's message,
 * else only a system error's code (a message may quote an address or what was sent).
 */
export function describeFailure(error: unknown): string {
  if (isEngineError(error)) return error.message;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  return 'failed';
}
