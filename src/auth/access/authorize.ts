import type { AuthenticatedOptions } from './access.decorators';
import type { Principal } from './principal';

/** Why an authenticated caller may not use a route, or undefined when it may. */
export function denialReason(
  options: AuthenticatedOptions,
  principal: Principal,
): string | undefined {
  if (principal.role === 'admin') return undefined;
  if (options.admin) return 'Administrator role required';
  if (options.permission && !principal.permissions.includes(options.permission)) {
    return `Missing permission: ${options.permission}`;
  }
  return undefined;
}
