import { UsersRepository } from '../../src/modules/users/users.repository';
import { createApiKey, createMember, registerOrganization } from '../support/factories';
import { LogCapture } from '../support/log-capture';
import { startTestApp, type TestApp } from '../support/test-app';
import { forgedTokens } from '../support/tokens';
import { waitFor } from '../support/wait-for';

const USER_KEYS = ['_id', 'createdAt', 'email', 'name', 'organizationId', 'permissions', 'role'];

describe('auth: register, login, me, tokens', () => {
  const logs = new LogCapture();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ logStream: logs, env: { LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/auth/register', () => {
    it('creates an organization whose first user is an admin holding every permission', async () => {
      const response = await t.http
        .post('/api/auth/register')
        .send({
          organizationName: 'Acme',
          name: 'Ada',
          email: ' Ada@Example.COM ',
          password: 'password-123',
        })
        .expect(201);
      expect(Object.keys(response.body).sort()).toEqual(['code', 'data', 'message', 'status']);
      expect(response.body).toMatchObject({ status: true, code: 201 });
      const { user, accessToken } = response.body.data;
      expect(typeof accessToken).toBe('string');
      expect(Object.keys(user).sort()).toEqual(USER_KEYS);
      expect(user).toMatchObject({ email: 'ada@example.com', role: 'admin', name: 'Ada' });
      expect(user.permissions).toEqual(
        expect.arrayContaining(['calls', 'phones', 'dnc', 'webhooks', 'videoAgents']),
      );
      expect(user._id).toMatch(/^[0-9a-f]{24}$/);
      expect(user.organizationId).toMatch(/^[0-9a-f]{24}$/);
      expect(JSON.stringify(response.body)).not.toContain('password');
    });

    it('answers a taken e-mail (any letter case) with 201, logging the notice without the address', async () => {
      const admin = await registerOrganization(t.http);
      const response = await t.http
        .post('/api/auth/register')
        .send({
          organizationName: 'Other',
          name: 'Eve',
          email: admin.email.toUpperCase(),
          password: 'password-123',
        })
        .expect(201);
      expect(response.body).toMatchObject({
        message: 'Organization registered',
        status: true,
        code: 201,
        data: { user: { email: admin.email, name: 'Eve' } },
      });
      await t.http
        .get('/api/auth/me')
        .set('Authorization', `Bearer ${response.body.data.accessToken}`)
        .expect(401);
      const line = await waitFor(
        () => logs.lines.find((entry) => entry.msg === 'notification not sent (SMTP_URL unset)'),
        { what: 'the not-sent log line' },
      );
      expect(line).toMatchObject({ subject: 'Sign-up attempt with your e-mail address' });
      expect(logs.text).not.toContain(admin.email);
    });

    it('answers 400 with one error per field for invalid input, and unknown fields', async () => {
      const response = await t.http
        .post('/api/auth/register')
        .send({
          organizationName: '',
          name: 'Eve',
          email: 'not-an-email',
          password: 'short',
          role: 'admin',
        })
        .expect(400);
      expect(response.body).toMatchObject({
        message: 'Validation failed',
        status: false,
        code: 400,
      });
      const fields = (response.body.errors as { field: string }[]).map((error) => error.field);
      expect(new Set(fields)).toEqual(new Set(['organizationName', 'email', 'password', 'role']));
      expect(response.body.errorMessage).toContain('email must be an email');
    });
  });

  describe('POST /api/auth/login', () => {
    it('returns a working token for good credentials', async () => {
      const admin = await registerOrganization(t.http);
      const login = await t.http
        .post('/api/auth/login')
        .send({ email: admin.email, password: admin.password })
        .expect(200);
      expect(login.body).toMatchObject({ message: 'Logged in', status: true, code: 200 });
      const me = await t.http
        .get('/api/auth/me')
        .set('Authorization', `Bearer ${login.body.data.accessToken}`)
        .expect(200);
      expect(me.body.data._id).toBe(admin.userId);
    });

    it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
      const admin = await registerOrganization(t.http);
      const wrong = await t.http
        .post('/api/auth/login')
        .send({ email: admin.email, password: 'wrong password' })
        .expect(401);
      const unknown = await t.http
        .post('/api/auth/login')
        .send({ email: 'nobody@example.com', password: 'wrong password' })
        .expect(401);
      expect(wrong.body).toEqual(unknown.body);
      expect(wrong.body).toEqual({
        message: 'Unauthorized',
        status: false,
        code: 401,
        errorMessage: 'Invalid e-mail or password',
      });
    });

    it('locks an e-mail for one address after 5 failures, even for the right password, with Retry-After', async () => {
      const admin = await registerOrganization(t.http);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await t.http
          .post('/api/auth/login')
          .send({ email: admin.email, password: 'wrong password' })
          .expect(401);
      }
      const locked = await t.http
        .post('/api/auth/login')
        .send({ email: admin.email, password: admin.password })
        .expect(429);
      expect(locked.body).toMatchObject({ status: false, code: 429, message: 'Too many requests' });
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      // Other accounts are unaffected.
      const other = await registerOrganization(t.http);
      await t.http
        .post('/api/auth/login')
        .send({ email: other.email, password: other.password })
        .expect(200);
    }, 30_000); // eight argon2id hashes and verifies
  });

  describe('GET /api/auth/me', () => {
    it('answers the user for a bearer token and the key creator for an API key', async () => {
      const admin = await registerOrganization(t.http);
      const bearer = await t.http
        .get('/api/auth/me')
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(200);
      expect(Object.keys(bearer.body.data).sort()).toEqual(USER_KEYS);
      const { key } = await createApiKey(t.http, admin.token);
      const viaKey = await t.http.get('/api/auth/me').set('x-api-key', key).expect(200);
      expect(viaKey.body.data._id).toBe(admin.userId);
    });

    it.each([
      ['no header', undefined],
      ['an empty bearer', 'Bearer '],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
    ])('answers 401 for %s', async (_, header) => {
      const request = t.http.get('/api/auth/me');
      if (header !== undefined) request.set('Authorization', header);
      const response = await request.expect(401);
      expect(response.body).toMatchObject({ status: false, code: 401, message: 'Unauthorized' });
    });

    it('answers 401 for every forged or invalid token', async () => {
      const admin = await registerOrganization(t.http);
      const tokens = forgedTokens({ sub: admin.userId, org: admin.organizationId });
      for (const [variant, token] of Object.entries(tokens)) {
        const response = await t.http.get('/api/auth/me').set('Authorization', `Bearer ${token}`);
        expect({ variant, status: response.status }).toEqual({ variant, status: 401 });
        expect(response.body).toMatchObject({ status: false, code: 401 });
      }
      const expired = await t.http
        .get('/api/auth/me')
        .set('Authorization', `Bearer ${tokens.expired}`);
      expect(expired.body.errorMessage).toBe('Access token expired');
    });

    it('answers 401 for the token of a deleted user', async () => {
      const admin = await registerOrganization(t.http);
      const member = await createMember(t.http, admin.token);
      await t.http.get('/api/auth/me').set('Authorization', `Bearer ${member.token}`).expect(200);
      await t.app.get(UsersRepository).delete(admin.organizationId, member.userId);
      await t.http.get('/api/auth/me').set('Authorization', `Bearer ${member.token}`).expect(401);
    });
  });
});
