import type { components } from './openapi.generated';

/** The common error envelope of every 4xx and 5xx answer. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelopeDto'];

/** An answer outside 2xx, with the service's error envelope when it sent one. */
export class SwitchboardApiError extends Error {
  readonly status: number;
  readonly body: ErrorEnvelope | undefined;

  constructor(response: Response, body: unknown) {
    const envelope = isErrorEnvelope(body) ? body : undefined;
    super(
      `${response.status} ${envelope?.errorMessage || envelope?.message || response.statusText}`,
    );
    this.name = 'SwitchboardApiError';
    this.status = response.status;
    this.body = envelope;
  }
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && (body as ErrorEnvelope).status === false;
}

/** The body of a success; `undefined` only for an operation that answers without one. */
type Body<T> = [Exclude<T, undefined>] extends [never] ? undefined : Exclude<T, undefined>;

type Result<T> =
  | { data: T; error?: never; response: Response }
  | { data?: never; error: unknown; response: Response };

/**
 * The success body of a call, or a thrown {@link SwitchboardApiError}: saves checking `error`
 * after every call. `const { data: batch } = await unwrap(client.GET(…))`.
 */
export async function unwrap<T>(result: Result<T> | Promise<Result<T>>): Promise<Body<T>> {
  const settled = await result;
  if (settled.error !== undefined || !settled.response.ok) {
    throw new SwitchboardApiError(settled.response, settled.error);
  }
  return settled.data as Body<T>;
}
