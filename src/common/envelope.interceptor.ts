import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { ENVELOPE_METADATA, type EnvelopeMetadata } from './envelope.decorators';

/**
 * Renders every @ApiEnvelope handler's result as { message, status, code, errorMessage?, data? },
 * plus the extra top-level fields the decorator declares.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const envelope = this.reflector.get<EnvelopeMetadata | undefined>(
      ENVELOPE_METADATA,
      context.getHandler(),
    );
    if (!envelope) return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result: unknown) => {
        const { data, ...fields } = envelope.fields
          ? (result as Record<string, unknown>)
          : { data: result };
        return {
          message: envelope.message,
          status: true,
          code: response.statusCode,
          ...(envelope.errorMessage ? { errorMessage: '' } : {}),
          ...(envelope.hasData ? { data } : {}),
          ...Object.fromEntries(
            (envelope.fields ?? [])
              .filter((name) => fields[name] !== undefined)
              .map((name) => [name, fields[name]]),
          ),
        };
      }),
    );
  }
}
