export type ProviderErrorKind =
  | 'auth'
  | 'not_found'
  | 'not_owned'
  | 'rate_limited'
  | 'invalid_request'
  | 'unreachable'
  | 'upstream';

/** A provider's answer turned into a kind the services decide on, with a message safe to show. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
