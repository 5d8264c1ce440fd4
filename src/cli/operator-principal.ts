import { PERMISSIONS } from '@app/contracts';
import type { Principal } from '../auth/access';

/**
 * Who a CLI command acts as: an admin of the organization that holds the record it names, on
 * behalf of `userId` (the batch's owner, the admin an API key is issued for). The operator who
 * can run the CLI can read the database anyway; the services' rules still apply.
 */
export function operatorPrincipal(organizationId: string, userId: string): Principal {
  return { kind: 'user', organizationId, userId, role: 'admin', permissions: PERMISSIONS };
}
