import {
  BadRequestException,
  ConflictException,
  HttpException,
  NotFoundException,
} from '@nestjs/common';
import { GraphError, messagingPlatformUnavailable } from './graph/graph-error';

/** Whose access token a platform call used: one just sent by the client, or the stored one. */
export type TokenSource = 'sent' | 'stored';

/**
 * The platform's answer as ours: an outage is 502; a refused token sent by the client is 400,
 * the stored one 409 (the integration needs a new token); an unknown object 404; any other
 * refusal of what the client sent 400.
 */
export function platformRefusal(
  error: GraphError,
  token: TokenSource,
  what: string,
): HttpException {
  if (error.isOutage) return messagingPlatformUnavailable(error);
  switch (error.kind) {
    case 'auth':
      return token === 'sent'
        ? new BadRequestException(`Invalid access token: ${error.message}`)
        : new ConflictException(
            `The messaging platform refused the stored access token; update the integration with a new accessToken (${error.message})`,
          );
    case 'permission':
      return new BadRequestException(`The access token may not manage ${what}: ${error.message}`);
    case 'not_found':
      return new NotFoundException(`${what} not found at the messaging platform`);
    case 'invalid_request':
    case 'needs_template':
    case 'undeliverable':
    case 'rate_limited':
    case 'unreachable':
    case 'upstream':
      return new BadRequestException(
        `The messaging platform refused the request: ${error.message}`,
      );
  }
}

/** Runs a platform call, turning its GraphError into our answer (see platformRefusal). */
export async function atPlatform<T>(
  step: () => Promise<T>,
  token: TokenSource,
  what: string,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof GraphError) throw platformRefusal(error, token, what);
    throw error;
  }
}
