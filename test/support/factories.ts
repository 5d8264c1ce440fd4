import { randomBytes } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';

export interface RegisteredAdmin {
  token: string;
  userId: string;
  organizationId: string;
  email: string;
  password: string;
}

const unique = () => randomBytes(5).toString('hex');

/** Registers a new organization through the API and returns its first admin's session. */
export async function registerOrganization(
  http: TestAgent,
  overrides: Partial<{
    organizationName: string;
    name: string;
    email: string;
    password: string;
  }> = {},
): Promise<RegisteredAdmin> {
  const body = {
    organizationName: `Org ${unique()}`,
    name: 'Ada Admin',
    email: `admin-${unique()}@example.com`,
    password: 'correct horse battery',
    ...overrides,
  };
  const response = await http.post('/api/auth/register').send(body).expect(201);
  return {
    token: response.body.data.accessToken,
    userId: response.body.data.user._id,
    organizationId: response.body.data.user.organizationId,
    email: body.email,
    password: body.password,
  };
}

/** Creates a member with the given permissions and logs them in. */
export async function createMember(
  http: TestAgent,
  adminToken: string,
  permissions: string[] = [],
): Promise<{ token: string; userId: string; email: string }> {
  const email = `member-${unique()}@example.com`;
  const password = 'member password 1';
  const created = await http
    .post('/api/users')
    .set('Authorization', `Bearer ${adminToken}`)
    .send({ name: 'Mia Member', email, password, role: 'member', permissions })
    .expect(201);
  const login = await http.post('/api/auth/login').send({ email, password }).expect(200);
  return { token: login.body.data.accessToken, userId: created.body.data._id, email };
}

/** Creates an API key as the given admin and returns the plaintext key. */
export async function createApiKey(http: TestAgent, adminToken: string, name = 'test key') {
  const response = await http
    .post('/api/api-keys')
    .set('Authorization', `Bearer ${adminToken}`)
    .send({ name })
    .expect(201);
  return { key: response.body.data.key as string, id: response.body.data._id as string };
}
