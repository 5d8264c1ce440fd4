import { Client } from 'pg';
import { createApiKey, createMember, registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

describe('users and API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  describe('/api/users', () => {
    it('lets an admin add members with permissions and list only their organization', async () => {
      const admin = await registerOrganization(t.http);
      const other = await registerOrganization(t.http);
      const created = await t.http
        .post('/api/users')
        .set(bearer(admin.token))
        .send({
          name: 'Mia',
          email: 'MIA@example.com',
          password: 'member password',
          role: 'member',
          permissions: ['calls', 'dnc'],
        })
        .expect(201);
      expect(created.body).toMatchObject({ message: 'User created', status: true, code: 201 });
      expect(created.body.data).toMatchObject({
        email: 'mia@example.com',
        role: 'member',
        permissions: ['calls', 'dnc'],
        organizationId: admin.organizationId,
      });
      expect(created.body.data).not.toHaveProperty('passwordHash');

      const list = await t.http.get('/api/users').set(bearer(admin.token)).expect(200);
      expect(list.body.data.map((user: { email: string }) => user.email)).toEqual([
        admin.email,
        'mia@example.com',
      ]);
      const otherList = await t.http.get('/api/users').set(bearer(other.token)).expect(200);
      expect(otherList.body.data.map((user: { email: string }) => user.email)).toEqual([
        other.email,
      ]);
    });

    it('gives an admin created by an admin every permission', async () => {
      const admin = await registerOrganization(t.http);
      const created = await t.http
        .post('/api/users')
        .set(bearer(admin.token))
        .send({
          name: 'Second admin',
          email: 'second-admin@example.com',
          password: 'admin password',
          role: 'admin',
        })
        .expect(201);
      expect(created.body.data.permissions).toHaveLength(8);
    });

    it('answers 409 for a taken e-mail and 400 for an unknown permission', async () => {
      const admin = await registerOrganization(t.http);
      await t.http
        .post('/api/users')
        .set(bearer(admin.token))
        .send({ name: 'Dup', email: admin.email, password: 'password 123' })
        .expect(409);
      const invalid = await t.http
        .post('/api/users')
        .set(bearer(admin.token))
        .send({
          name: 'X',
          email: 'x@example.com',
          password: 'password 123',
          permissions: ['calls', 'everything'],
        })
        .expect(400);
      expect(invalid.body.errors[0].field).toBe('permissions');
    });

    it('answers 403 to members, whatever their permissions', async () => {
      const admin = await registerOrganization(t.http);
      const member = await createMember(t.http, admin.token, [
        'calls',
        'phones',
        'dnc',
        'webhooks',
      ]);
      const list = await t.http.get('/api/users').set(bearer(member.token)).expect(403);
      expect(list.body).toEqual({
        message: 'Forbidden',
        status: false,
        code: 403,
        errorMessage: 'Administrator role required',
      });
      await t.http
        .post('/api/users')
        .set(bearer(member.token))
        .send({ name: 'Y', email: 'y@example.com', password: 'password 123' })
        .expect(403);
      await t.http.post('/api/api-keys').set(bearer(member.token)).send({ name: 'k' }).expect(403);
    });
  });

  describe('/api/api-keys', () => {
    it('shows the key once, stores only a hash, and lists without it', async () => {
      const admin = await registerOrganization(t.http);
      const created = await t.http
        .post('/api/api-keys')
        .set(bearer(admin.token))
        .send({ name: 'CRM' })
        .expect(201);
      const { key, prefix, _id } = created.body.data;
      expect(Object.keys(created.body.data).sort()).toEqual([
        '_id',
        'createdAt',
        'key',
        'name',
        'prefix',
      ]);
      expect(key.startsWith(`${prefix}_`)).toBe(true);

      const list = await t.http.get('/api/api-keys').set(bearer(admin.token)).expect(200);
      expect(list.body.data).toEqual([
        { _id, name: 'CRM', prefix, createdAt: created.body.data.createdAt, lastUsedAt: null },
      ]);
      expect(JSON.stringify(list.body)).not.toContain(key);

      const client = new Client({ connectionString: t.database.url });
      await client.connect();
      const dump = await client.query('SELECT * FROM api_keys');
      await client.end();
      const secret = key.slice(prefix.length + 1);
      expect(secret).toHaveLength(43);
      expect(JSON.stringify(dump.rows)).not.toContain(secret);
    });

    it('authenticates as the organization admin and stops working at once when revoked', async () => {
      const admin = await registerOrganization(t.http);
      const { key, id } = await createApiKey(t.http, admin.token);
      const users = await t.http.get('/api/users').set('x-api-key', key).expect(200);
      expect(users.body.data[0].organizationId).toBe(admin.organizationId);

      const revoked = await t.http
        .delete(`/api/api-keys/${id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(revoked.body).toEqual({ message: 'API key revoked', status: true, code: 200 });
      const after = await t.http.get('/api/auth/me').set('x-api-key', key).expect(401);
      expect(after.body.errorMessage).toBe('Invalid or revoked API key');
      await t.http.delete(`/api/api-keys/${id}`).set(bearer(admin.token)).expect(404);
      const list = await t.http.get('/api/api-keys').set(bearer(admin.token)).expect(200);
      expect(list.body.data).toEqual([]);
    });

    it('wins over a bearer token when both are sent', async () => {
      const alpha = await registerOrganization(t.http);
      const beta = await registerOrganization(t.http);
      const { key: betaKey } = await createApiKey(t.http, beta.token);
      const both = await t.http
        .get('/api/auth/me')
        .set(bearer(alpha.token))
        .set('x-api-key', betaKey)
        .expect(200);
      expect(both.body.data._id).toBe(beta.userId);
      // A bad key is not rescued by a good bearer token.
      await t.http
        .get('/api/auth/me')
        .set(bearer(alpha.token))
        .set('x-api-key', 'sb_0000000000000000_nope')
        .expect(401);
    });

    it('answers 401 for malformed and unknown keys', async () => {
      for (const key of ['', 'garbage', `sb_0123456789abcdef_${'a'.repeat(43)}`]) {
        const response = await t.http.get('/api/auth/me').set('x-api-key', key);
        expect({ key, status: response.status }).toEqual({ key, status: 401 });
      }
    });

    it('keeps organizations apart: 404 for another organization key, 400 for a malformed id', async () => {
      const alpha = await registerOrganization(t.http);
      const beta = await registerOrganization(t.http);
      const { key, id } = await createApiKey(t.http, alpha.token);
      const foreign = await t.http
        .delete(`/api/api-keys/${id}`)
        .set(bearer(beta.token))
        .expect(404);
      expect(foreign.body).toEqual({
        message: 'Not found',
        status: false,
        code: 404,
        errorMessage: 'API key not found',
      });
      await t.http.get('/api/auth/me').set('x-api-key', key).expect(200);
      const malformed = await t.http
        .delete('/api/api-keys/not-an-id')
        .set(bearer(alpha.token))
        .expect(400);
      expect(malformed.body).toMatchObject({
        status: false,
        code: 400,
        errorMessage: expect.stringContaining('Invalid id format'),
      });
      const betaList = await t.http.get('/api/api-keys').set(bearer(beta.token)).expect(200);
      expect(betaList.body.data).toEqual([]);
    });
  });
});
