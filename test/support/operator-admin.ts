import { PERMISSIONS } from '@app/contracts';
import { Database } from '../../src/database';
import { organizations } from '../../src/modules/organizations/organizations.schema';
import { UsersService } from '../../src/modules/users/users.service';
import type { TestApp } from './test-app';

/**
 * The operator organization (the id named in QUEUE_BOARD_ORGANIZATIONS, chosen before the app
 * starts) with its admin, signed in: the bearer token.
 */
export async function operatorAdmin(t: TestApp, organizationId: string): Promise<string> {
  await t.app.get(Database).db.insert(organizations).values({ id: organizationId, name: 'Ops' });
  const email = `operator-${organizationId}@example.com`;
  const password = 'operator password 1';
  await t.app.get(UsersService).create(organizationId, {
    name: 'Olga Operator',
    email,
    password,
    role: 'admin',
    permissions: [...PERMISSIONS],
  });
  const login = await t.http.post('/api/auth/login').send({ email, password }).expect(200);
  return login.body.data.accessToken as string;
}
