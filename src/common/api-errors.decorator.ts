import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from './error-envelope.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input',
  401: 'Missing, malformed, expired or revoked credentials',
  403: 'Not allowed for these credentials',
  404: 'Not found in this organization',
  409: 'Conflicts with an existing resource',
  413: 'Body or upload too large',
  415: 'Unsupported media type',
  422: 'Semantically invalid input',
  429: 'Too many requests; see Retry-After',
  500: 'Unexpected server error',
  502: 'The telephony provider is down, timed out or failed; errorMessage gives its reason',
  503: 'Not ready',
};

/** Documents the error answers of an operation, all in the error envelope. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type: ErrorEnvelopeDto }),
    ),
  );
}

/**
 * The one rule of every DELETE route: a malformed id answers 400; an id that is unknown, belongs
 * to another organization or was already deleted answers 404 (so deleting twice answers 404),
 * both in the error envelope. Each route's success body is the contract's own.
 */
export function ApiDeleteErrors(): MethodDecorator {
  return applyDecorators(
    ApiResponse({ status: 400, description: 'Malformed id', type: ErrorEnvelopeDto }),
    ApiResponse({
      status: 404,
      description:
        'Unknown, in another organization, or already deleted: deleting twice answers 404',
      type: ErrorEnvelopeDto,
    }),
  );
}
