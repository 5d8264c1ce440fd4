import type { Permission, Role } from '@app/contracts';

/** Who is calling: a user with a bearer token, or an API key acting as its organization's admin. */
export interface Principal {
  kind: 'user' | 'apiKey';
  organizationId: string;
  /** The user, or for an API key the admin who created it (the user create-batch derives). */
  userId: string;
  role: Role;
  permissions: readonly Permission[];
  apiKeyId?: string;
}
