import type { Permission } from '@app/contracts';
import {
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../../common/api-errors.decorator';
import type { Principal } from './principal';

export const ACCESS_METADATA = 'switchboard:access';
export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'api-key';

export interface AuthenticatedOptions {
  /** The area permission a member needs (admins and API keys hold them all). */
  permission?: Permission;
  /** Only admins (and API keys, which act as admin). */
  admin?: boolean;
  /** Whether `x-api-key` is accepted; false for bearer-only operations. Default true. */
  apiKey?: boolean;
  /** Status for missing or invalid credentials: 401, or 403 where the seed says so (create-batch). */
  unauthenticatedStatus?: 401 | 403;
}

export type AccessPolicy = { kind: 'public' } | ({ kind: 'authenticated' } & AuthenticatedOptions);

/**
 * Opens a route to authenticated callers, optionally requiring admin or an area permission.
 * Also writes the operation's OpenAPI security requirements. One of this or @Public() is
 * required on every route: the global guard denies the rest.
 */
export function Authenticated(
  options: AuthenticatedOptions = {},
): MethodDecorator & ClassDecorator {
  const policy: AccessPolicy = { kind: 'authenticated', ...options };
  const security = [ApiBearerAuth(BEARER_SCHEME)];
  if (options.apiKey !== false) security.push(ApiSecurity(API_KEY_SCHEME));
  const statuses = new Set([options.unauthenticatedStatus ?? 401]);
  if (options.admin || options.permission) statuses.add(403);
  const errors = ApiErrors(...statuses);
  return applyDecorators(SetMetadata(ACCESS_METADATA, policy), ...security, errors);
}

/** Opens a route to anyone (sign-up, login, health, provider callbacks). */
export function Public(): MethodDecorator & ClassDecorator {
  return SetMetadata(ACCESS_METADATA, { kind: 'public' } satisfies AccessPolicy);
}

/** The authenticated caller of an @Authenticated route. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal =>
    context.switchToHttp().getRequest<{ user: Principal }>().user,
);
