import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { ACCESS_METADATA, type AccessPolicy, type Principal } from './access';
import { denialReason } from './access/authorize';
import { API_KEY_HEADER, API_KEY_STRATEGY } from './api-key.strategy';
import { JWT_STRATEGY } from './jwt.strategy';

/** Turns passport's failures into 401s that say what was wrong, without internals. */
function explain(info: unknown): string {
  const name = (info as { name?: string } | undefined)?.name;
  const message = (info as { message?: string } | undefined)?.message;
  if (name === 'TokenExpiredError') return 'Access token expired';
  if (message === 'No auth token') {
    return 'Missing credentials: send Authorization: Bearer <token> or x-api-key';
  }
  return 'Invalid access token';
}

class BearerGuard extends AuthGuard(JWT_STRATEGY) {
  override handleRequest<T>(error: unknown, user: T, info: unknown): T {
    if (error instanceof UnauthorizedException) throw error;
    if (error || !user) throw new UnauthorizedException(explain(info));
    return user;
  }
}

class ApiKeyGuard extends AuthGuard(API_KEY_STRATEGY) {
  override handleRequest<T>(error: unknown, user: T): T {
    if (error instanceof UnauthorizedException) throw error;
    if (error || !user) throw new UnauthorizedException('Invalid or revoked API key');
    return user;
  }
}

/**
 * The global guard: deny by default. A route opens only through @Public() or @Authenticated();
 * an API key wins over a bearer token when both are sent.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);
  private readonly bearer = new BearerGuard();
  private readonly apiKey = new ApiKeyGuard();

  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!policy) {
      this.logger.error(
        `Route ${context.getClass().name}.${context.getHandler().name} declares no access policy`,
      );
      throw new ForbiddenException('Access denied');
    }
    if (policy.kind === 'public') return true;

    const request = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const useApiKey = policy.apiKey !== false && request.headers[API_KEY_HEADER] !== undefined;
    try {
      await (useApiKey ? this.apiKey : this.bearer).canActivate(context);
    } catch (error) {
      if (policy.unauthenticatedStatus === 403 && error instanceof UnauthorizedException) {
        throw new ForbiddenException(error.message);
      }
      throw error;
    }

    const denied = denialReason(policy, request.user!);
    if (denied) throw new ForbiddenException(denied);
    return true;
  }
}
