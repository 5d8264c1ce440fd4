import { BadGatewayException } from '@nestjs/common';
import { ProviderError } from '../../telephony/provider-error';

export type GraphErrorKind =
  | 'auth'
  | 'permission'
  | 'not_found'
  | 'rate_limited'
  | 'undeliverable'
  | 'needs_template'
  | 'invalid_request'
  | 'unreachable'
  | 'upstream';

/** The platform's error body: `{ error: { message, type, code, error_subcode?, fbtrace_id } }`. */
interface GraphErrorBody {
  error?: {
    message?: unknown;
    code?: unknown;
    error_subcode?: unknown;
    fbtrace_id?: unknown;
    error_data?: { details?: unknown };
  };
}

// Meta: build logic on `code`, never on the text of `message`.
const AUTH_CODES = new Set([0, 102, 190]);
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131056]);
/** Subcode of code 100 for "Object with ID ... does not exist". */
const UNKNOWN_OBJECT_SUBCODE = 33;

/** A Graph API error turned into a kind the services decide on, with a message safe to show. */
export class GraphError extends Error {
  constructor(
    readonly kind: GraphErrorKind,
    message: string,
    /** The platform's numeric `code` (undefined when it never answered). */
    readonly code?: number,
    readonly fbtraceId?: string,
  ) {
    super(message);
    this.name = 'GraphError';
  }

  /** The platform could not serve us, whatever we sent. */
  get isOutage(): boolean {
    return this.kind === 'unreachable' || this.kind === 'upstream' || this.kind === 'rate_limited';
  }

  static from(error: ProviderError): GraphError {
    const detail = (error.body as GraphErrorBody | undefined)?.error;
    const code = typeof detail?.code === 'number' ? detail.code : undefined;
    const subcode = typeof detail?.error_subcode === 'number' ? detail.error_subcode : undefined;
    const trace = typeof detail?.fbtrace_id === 'string' ? detail.fbtrace_id : undefined;
    return new GraphError(kindOf(code, subcode, error), error.message, code, trace);
  }
}

function kindOf(
  code: number | undefined,
  subcode: number | undefined,
  error: ProviderError,
): GraphErrorKind {
  if (code === undefined) {
    if (error.kind === 'unreachable' || error.kind === 'rate_limited') return error.kind;
    if (error.kind === 'not_found') return 'not_found';
    return error.isOutage ? 'upstream' : 'invalid_request';
  }
  if (AUTH_CODES.has(code)) return 'auth';
  if (RATE_LIMIT_CODES.has(code)) return 'rate_limited';
  if (code === 3 || code === 10 || (code >= 200 && code <= 299)) return 'permission';
  if (code === 131026) return 'undeliverable';
  if (code === 131047) return 'needs_template';
  if (code === 100 && subcode === UNKNOWN_OBJECT_SUBCODE) return 'not_found';
  if (code === 1 || code === 2 || code === 131000 || code === 131016) return 'upstream';
  return 'invalid_request';
}

/** The one answer to a platform outage on any route: 502 with its (secret-free) reason. */
export function messagingPlatformUnavailable(error: GraphError): BadGatewayException {
  return new BadGatewayException(`Messaging platform unavailable: ${error.message}`);
}
