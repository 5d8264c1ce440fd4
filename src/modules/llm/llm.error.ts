/**
 * not_configured: LLM_API_URL is unset. refused: the service answered an error (with its HTTP
 * status, or none when the error came mid-stream). unreachable: no connection. timeout: no first
 * byte, or too long a silence mid-stream. malformed: an answer that is not the protocol.
 */
export type LlmErrorKind = 'not_configured' | 'refused' | 'unreachable' | 'timeout' | 'malformed';

/** A failed chat completion. Its message never carries the API key, the prompt or the reply. */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
    /** How long the service asked us to wait before another try (Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }

  /** Worth trying again later: a timeout, no connection, 429 or a 5xx. */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'unreachable') return true;
    return this.kind === 'refused' && (this.status === 429 || (this.status ?? 0) >= 500);
  }
}

/** What an OpenAI-style error body says, reduced to its machine-readable code (never its text). */
export function describeUpstreamError(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const { error } = body;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, type } = error as { code?: unknown; type?: unknown };
  const word = typeof code === 'string' ? code : typeof type === 'string' ? type : undefined;
  // A code is a short identifier; anything else may echo what we sent.
  return word !== undefined && /^[\w.-]{1,64}$/.test(word) ? word : undefined;
}
