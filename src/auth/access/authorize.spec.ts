import { PERMISSIONS } from '@app/contracts';
import { denialReason } from './authorize';
import type { Principal } from './principal';

const member = (permissions: Principal['permissions']): Principal => ({
  kind: 'user',
  organizationId: 'o',
  userId: 'u',
  role: 'member',
  permissions,
});
const admin: Principal = { ...member([]), role: 'admin' };

describe('denialReason', () => {
  it('lets any authenticated caller use a route that asks for nothing more', () => {
    expect(denialReason({}, member([]))).toBeUndefined();
  });

  it('requires the admin role for admin routes, whatever the permissions', () => {
    expect(denialReason({ admin: true }, member([...PERMISSIONS]))).toBe(
      'Administrator role required',
    );
    expect(denialReason({ admin: true }, admin)).toBeUndefined();
  });

  it.each(PERMISSIONS)(
    'requires the %s permission from members, and never from admins',
    (permission) => {
      const others = PERMISSIONS.filter((p) => p !== permission);
      expect(denialReason({ permission }, member(others))).toBe(
        `Missing permission: ${permission}`,
      );
      expect(denialReason({ permission }, member([permission]))).toBeUndefined();
      expect(denialReason({ permission }, admin)).toBeUndefined();
    },
  );
});
