import { BadGatewayException } from '@nestjs/common';
import { describeUnknown } from '../../common/describe-error';

export type ProviderErrorKind =
  | 'auth'
  | 'not_found'
  | 'not_owned'
  | 'rate_limited'
  | 'invalid_request'
  | 'unreachable'
  | 'upstream';

// Down, timed out, throttling us or failing on its side (5xx, an oversized body).
const OUTAGES: ReadonlySet<ProviderErrorKind> = new Set([
  'unreachable',
  'upstream',
  'rate_limited',
]);

/** What a failed request proves beyond its kind. */
export interface ProviderErrorFacts {
  /** The connection was never made (ECONNREFUSED and the like): the provider got nothing. */
  neverConnected?: boolean;
  /** The provider's Retry-After (or Telnyx x-ratelimit-reset), in seconds. */
  retryAfterSeconds?: number;
}

/** A provider's answer turned into a kind the services decide on, with a message safe to show. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly httpStatus?: number,
    /** The provider's error body as parsed, for adapters that decide on its own codes. */
    readonly body?: unknown,
    readonly facts: ProviderErrorFacts = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** The provider could not serve us, whatever we sent: every route answers 502. */
  get isOutage(): boolean {
    return OUTAGES.has(this.kind);
  }

  /**
   * The request cannot have created anything at the provider: it throttled us (429: the request
   * was refused as a whole) or never received it (no connection was made). A timeout, a 5xx or a
   * connection lost mid-answer prove nothing: the provider may have acted.
   */
  get provesNothingDone(): boolean {
    return this.kind === 'rate_limited' || this.facts.neverConnected === true;
  }

  /**
   * The provider did not act on the request: it proves nothing was done, or the provider answered
   * that it would not (4xx). A 5xx, a timeout or a cut answer may hide an action.
   */
  get provesNotActed(): boolean {
    const status = this.httpStatus;
    return this.provesNothingDone || (status !== undefined && status >= 400 && status < 500);
  }
}

/** The one answer to an upstream outage on any route: 502 with the provider's (secret-free) reason. */
export function providerUnavailable(error: ProviderError): BadGatewayException {
  return new BadGatewayException(`Telephony provider unavailable: ${error.message}`);
}

/** What a log may say about a failed provider request: its kind and status, nothing it carried. */
export function describeProviderFailure(
  error: unknown,
): { kind: ProviderErrorKind; status?: number } | ReturnType<typeof describeUnknown> {
  return error instanceof ProviderError
    ? { kind: error.kind, status: error.httpStatus }
    : describeUnknown(error);
}
