import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import type { WebhookDnsResolver } from '../../src/modules/webhooks/ssrf';
import { WebhookSecrets } from '../../src/modules/webhooks/webhook-secrets';
import { WebhooksRepository } from '../../src/modules/webhooks/webhooks.repository';
import { webhooks } from '../../src/modules/webhooks/webhooks.schema';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const OWN_SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const MISSING_ID = '65f1c0ffee0123456789abcd';

/** Host names the tests control; anything else resolves to a public address. */
const DNS: Record<string, string[]> = {
  'private.example.com': ['10.1.2.3'],
  'loopback.example.com': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mixed.example.com': ['93.184.216.35', '192.168.1.20'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
};
const fakeDns: WebhookDnsResolver = (hostname) =>
  Promise.resolve(
    (DNS[hostname] ?? ['93.184.216.34']).map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    })),
  );

const body = (overrides: object = {}) => ({
  name: 'CRM sync',
  url: 'https://hooks.example.com/switchboard',
  events: ['call.completed', 'call.failed'],
  ...overrides,
});

describe('webhooks resource', () => {
  let t: TestApp;
  let admin: RegisteredAdmin;
  let other: RegisteredAdmin;
  let webhooksMember: { token: string };
  let callsMember: { token: string };

  beforeAll(async () => {
    t = await startTestApp({ webhookDnsResolver: fakeDns });
    admin = await registerOrganization(t.http);
    other = await registerOrganization(t.http);
    webhooksMember = await createMember(t.http, admin.token, ['webhooks']);
    callsMember = await createMember(t.http, admin.token, ['calls']);
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (payload: object = body(), token = admin.token) =>
    t.http.post('/api/webhooks').set(bearer(token)).send(payload);
  const rowOf = async (id: string) => {
    const [row] = await t.app.get(Database).db.select().from(webhooks).where(eq(webhooks.id, id));
    return row;
  };

  describe('POST /api/webhooks', () => {
    it('creates a webhook and shows the generated secret once, sealed in the database', async () => {
      const response = await create().expect(201);
      expect(response.body).toMatchObject({ message: 'Webhook created', status: true, code: 201 });
      const data = response.body.data;
      expect(data).toEqual({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        name: 'CRM sync',
        url: 'https://hooks.example.com/switchboard',
        events: ['call.completed', 'call.failed'],
        active: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        secret: expect.stringMatching(SECRET),
      });
      const row = await rowOf(data._id);
      expect(row.organizationId).toBe(admin.organizationId);
      expect(row.secret).not.toContain(data.secret.slice('whsec_'.length));
      expect(row.secret).not.toContain('whsec_');
      expect(t.app.get(WebhookSecrets).signingSecrets(row, new Date())).toEqual([data.secret]);

      const read = await t.http.get(`/api/webhooks/${data._id}`).set(bearer(admin.token));
      expect(read.status).toBe(200);
      expect(read.body.data).not.toHaveProperty('secret');
      expect(JSON.stringify(read.body)).not.toContain(data.secret);
    });

    it('keeps a supplied secret', async () => {
      const response = await create(body({ secret: OWN_SECRET }), webhooksMember.token).expect(201);
      expect(response.body.data.secret).toBe(OWN_SECRET);
      const row = await rowOf(response.body.data._id);
      expect(t.app.get(WebhookSecrets).signingSecrets(row, new Date())).toEqual([OWN_SECRET]);
    });

    it.each([
      ['no name', { name: undefined }],
      ['no events', { events: [] }],
      ['an unknown event type', { events: ['call.exploded'] }],
      ['webhook.test subscribed', { events: ['webhook.test'] }],
      ['repeated events', { events: ['call.failed', 'call.failed'] }],
      ['events not an array', { events: 'call.failed' }],
      ['a secret without prefix', { secret: Buffer.alloc(32).toString('base64') }],
      ['a secret too short', { secret: `whsec_${Buffer.alloc(16).toString('base64')}` }],
      ['a secret too long', { secret: `whsec_${Buffer.alloc(65).toString('base64')}` }],
      ['a secret not base64', { secret: 'whsec_!!!!not-base64!!!!not-base64!!!!!!!!' }],
      ['an unknown field', { active: false, extra: 1 }],
    ])('answers 400 for %s', async (_case, overrides) => {
      const response = await create(body(overrides)).expect(400);
      expect(response.body).toMatchObject({ status: false, code: 400 });
    });

    it.each([
      ['http', 'http://hooks.example.com/in', /must use https/],
      ['loopback literal', 'https://127.0.0.1/in', /loopback/],
      ['decimal loopback', 'https://2130706433/in', /loopback/],
      ['hex loopback', 'https://0x7f.0.0.1/in', /loopback/],
      ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/in', /loopback/],
      ['metadata literal', 'https://169.254.169.254/latest/meta-data/', /metadata/],
      ['localhost', 'https://localhost/in', /local name/],
      ['a name resolving to a private address', 'https://private.example.com/in', /private/],
      ['a name resolving to loopback', 'https://loopback.example.com/in', /loopback/],
      ['a name resolving to metadata', 'https://metadata.example.com/in', /metadata/],
      ['one private address among several', 'https://mixed.example.com/in', /192\.168\.1\.20/],
      ['a name resolving to mapped loopback', 'https://mapped.example.com/in', /loopback/],
      ['credentials', 'https://user:pw@hooks.example.com/in', /credentials/],
      ['a privileged port', 'https://hooks.example.com:25/in', /port/],
      ['not a URL', 'hooks example', /absolute https URL/],
    ])('answers 422 for %s', async (_case, url, reason) => {
      const response = await create(body({ url })).expect(422);
      expect(response.body).toMatchObject({ status: false, code: 422 });
      expect(response.body.errorMessage).toMatch(/^Invalid webhook URL: /);
      expect(response.body.errorMessage).toMatch(reason);
    });
  });

  describe('GET /api/webhooks', () => {
    it('lists the organization’s webhooks newest first, paginated, without secrets', async () => {
      const org = await registerOrganization(t.http);
      const ids: string[] = [];
      for (const name of ['first', 'second', 'third']) {
        ids.push((await create(body({ name }), org.token).expect(201)).body.data._id);
      }
      const page1 = await t.http
        .get('/api/webhooks?page=1&limit=2')
        .set(bearer(org.token))
        .expect(200);
      expect(page1.body.data.webhooks.map((w: { name: string }) => w.name)).toEqual([
        'third',
        'second',
      ]);
      expect(page1.body.data.pagination).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
      const page2 = await t.http
        .get('/api/webhooks?page=2&limit=2')
        .set(bearer(org.token))
        .expect(200);
      expect(page2.body.data.webhooks.map((w: { _id: string }) => w._id)).toEqual([ids[0]]);
      for (const webhook of [...page1.body.data.webhooks, ...page2.body.data.webhooks]) {
        expect(webhook).not.toHaveProperty('secret');
      }
      await t.http.get('/api/webhooks?limit=101').set(bearer(org.token)).expect(400);
    });

    it('shows disabledReason and disabledAt when delivery switched the webhook off', async () => {
      const id = (await create()).body.data._id;
      const disabledAt = new Date('2026-11-20T08:00:00.000Z');
      await t.app
        .get(WebhooksRepository)
        .update(admin.organizationId, id, { active: false, disabledReason: 'gone', disabledAt });
      const read = await t.http.get(`/api/webhooks/${id}`).set(bearer(admin.token)).expect(200);
      expect(read.body.data).toMatchObject({
        active: false,
        disabledReason: 'gone',
        disabledAt: disabledAt.toISOString(),
      });

      const enabled = await t.http
        .patch(`/api/webhooks/${id}`)
        .set(bearer(admin.token))
        .send({ active: true })
        .expect(200);
      expect(enabled.body.data.active).toBe(true);
      const after = await rowOf(id);
      expect(after).toMatchObject({ active: true, disabledReason: null, disabledAt: null });
    });
  });

  describe('PATCH /api/webhooks/{webhookId}', () => {
    it('changes only the given fields and answers the seed’s shape', async () => {
      const created = (await create()).body.data;
      const response = await t.http
        .patch(`/api/webhooks/${created._id}`)
        .set(bearer(webhooksMember.token))
        .send({ name: 'Renamed', events: ['call.answered'] })
        .expect(200);
      expect(response.body).toMatchObject({ message: 'Webhook updated', status: true, code: 200 });
      expect(response.body.data).toEqual({
        _id: created._id,
        name: 'Renamed',
        url: created.url,
        events: ['call.answered'],
        active: true,
        updatedAt: expect.any(String),
      });
      expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(
        Date.parse(created.updatedAt),
      );
      const row = await rowOf(created._id);
      expect(row).toMatchObject({ name: 'Renamed', url: created.url, events: ['call.answered'] });
    });

    it('deactivates, and replaces the secret at once without returning it', async () => {
      const created = (await create()).body.data;
      await t.http
        .post(`/api/webhooks/${created._id}/secret/rotate`)
        .set(bearer(admin.token))
        .send({})
        .expect(200);
      const response = await t.http
        .patch(`/api/webhooks/${created._id}`)
        .set(bearer(admin.token))
        .send({ active: false, secret: OWN_SECRET, url: 'https://other.example.com/in' })
        .expect(200);
      expect(response.body.data).toMatchObject({
        active: false,
        url: 'https://other.example.com/in',
      });
      expect(response.body.data).not.toHaveProperty('secret');
      expect(JSON.stringify(response.body)).not.toContain(OWN_SECRET);
      const row = await rowOf(created._id);
      expect(row.secret).not.toContain(OWN_SECRET.slice('whsec_'.length));
      expect(t.app.get(WebhookSecrets).signingSecrets(row, new Date())).toEqual([OWN_SECRET]);
    });

    it('answers 422 for a URL that is not an allowed target and changes nothing', async () => {
      const created = (await create()).body.data;
      const response = await t.http
        .patch(`/api/webhooks/${created._id}`)
        .set(bearer(admin.token))
        .send({ url: 'https://metadata.example.com/', name: 'Never' })
        .expect(422);
      expect(response.body.errorMessage).toMatch(/metadata/);
      expect(await rowOf(created._id)).toMatchObject({ url: created.url, name: 'CRM sync' });
    });

    it.each([
      ['an empty name', { name: '' }],
      ['active not a boolean', { active: 'yes' }],
      ['an unknown event', { events: ['call.unknown'] }],
      ['a malformed secret', { secret: 'whsec_short' }],
      ['an unknown field', { organizationId: MISSING_ID }],
    ])('answers 400 for %s', async (_case, payload) => {
      const created = (await create()).body.data;
      await t.http
        .patch(`/api/webhooks/${created._id}`)
        .set(bearer(admin.token))
        .send(payload)
        .expect(400);
    });

    it('answers 400 for a malformed id, 404 for a missing or another organization’s webhook', async () => {
      const theirs = (await create(body(), other.token)).body.data;
      await t.http
        .patch('/api/webhooks/not-an-id')
        .set(bearer(admin.token))
        .send({ name: 'x' })
        .expect(400);
      for (const id of [MISSING_ID, theirs._id]) {
        const response = await t.http
          .patch(`/api/webhooks/${id}`)
          .set(bearer(admin.token))
          .send({ name: 'Hijacked' })
          .expect(404);
        expect(response.body).toMatchObject({ code: 404, errorMessage: 'Webhook not found' });
      }
      expect((await rowOf(theirs._id)).name).toBe('CRM sync');
    });
  });

  describe('DELETE /api/webhooks/{webhookId}', () => {
    it('deletes for good and answers status, code and message only', async () => {
      const created = (await create()).body.data;
      const response = await t.http
        .delete(`/api/webhooks/${created._id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(response.body).toEqual({ message: 'Webhook deleted', status: true, code: 200 });
      expect(
        await t.app.get(WebhooksRepository).findById(admin.organizationId, created._id),
      ).toBeUndefined();
      await t.http.get(`/api/webhooks/${created._id}`).set(bearer(admin.token)).expect(404);
      await t.http.delete(`/api/webhooks/${created._id}`).set(bearer(admin.token)).expect(404);
    });

    it('answers 400 for a malformed id and 404 for another organization’s webhook', async () => {
      const theirs = (await create(body(), other.token)).body.data;
      await t.http.delete('/api/webhooks/123').set(bearer(admin.token)).expect(400);
      await t.http.delete(`/api/webhooks/${theirs._id}`).set(bearer(admin.token)).expect(404);
      expect(await rowOf(theirs._id)).toBeDefined();
    });
  });

  describe('POST /api/webhooks/{webhookId}/secret/rotate', () => {
    it('returns a new secret and keeps the old one signing until the grace period ends', async () => {
      const created = (await create()).body.data;
      const before = Date.now();
      const response = await t.http
        .post(`/api/webhooks/${created._id}/secret/rotate`)
        .set(bearer(admin.token))
        .send({ gracePeriodSeconds: 3600 })
        .expect(200);
      const { secret, previousSecretExpiresAt } = response.body.data;
      expect(response.body.data._id).toBe(created._id);
      expect(secret).toMatch(SECRET);
      expect(secret).not.toBe(created.secret);
      const expires = Date.parse(previousSecretExpiresAt);
      expect(expires).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 3600_000);

      const row = (await t.app
        .get(WebhooksRepository)
        .findById(admin.organizationId, created._id))!;
      const secrets = t.app.get(WebhookSecrets);
      expect(secrets.signingSecrets(row, new Date())).toEqual([secret, created.secret]);
      expect(secrets.signingSecrets(row, new Date(expires + 1))).toEqual([secret]);

      const read = await t.http.get(`/api/webhooks/${created._id}`).set(bearer(admin.token));
      expect(JSON.stringify(read.body)).not.toContain(secret);
    });

    it('defaults to a one-day grace period, and 0 drops the old secret at once', async () => {
      const created = (await create()).body.data;
      const rotated = await t.http
        .post(`/api/webhooks/${created._id}/secret/rotate`)
        .set(bearer(admin.token))
        .expect(200);
      const expires = Date.parse(rotated.body.data.previousSecretExpiresAt);
      expect(Math.abs(expires - Date.now() - 86_400_000)).toBeLessThan(60_000);

      const immediate = await t.http
        .post(`/api/webhooks/${created._id}/secret/rotate`)
        .set(bearer(admin.token))
        .send({ gracePeriodSeconds: 0 })
        .expect(200);
      expect(immediate.body.data.previousSecretExpiresAt).toBeNull();
      const row = await rowOf(created._id);
      expect(row.previousSecret).toBeNull();
      expect(t.app.get(WebhookSecrets).signingSecrets(row, new Date())).toEqual([
        immediate.body.data.secret,
      ]);
    });

    it.each([-1, 604_801, 1.5, 'soon'])('answers 400 for gracePeriodSeconds %p', async (grace) => {
      const created = (await create()).body.data;
      await t.http
        .post(`/api/webhooks/${created._id}/secret/rotate`)
        .set(bearer(admin.token))
        .send({ gracePeriodSeconds: grace })
        .expect(400);
    });

    it('answers 404 for another organization’s webhook', async () => {
      const theirs = (await create(body(), other.token)).body.data;
      await t.http
        .post(`/api/webhooks/${theirs._id}/secret/rotate`)
        .set(bearer(admin.token))
        .expect(404);
      const row = await rowOf(theirs._id);
      expect(t.app.get(WebhookSecrets).signingSecrets(row, new Date())).toEqual([theirs.secret]);
    });
  });

  describe('access', () => {
    const routes = (id: string) =>
      [
        ['post', '/api/webhooks'],
        ['get', '/api/webhooks'],
        ['get', `/api/webhooks/${id}`],
        ['patch', `/api/webhooks/${id}`],
        ['delete', `/api/webhooks/${id}`],
        ['post', `/api/webhooks/${id}/secret/rotate`],
      ] as const;

    it('answers 401 without credentials and 403 without the webhooks permission', async () => {
      const created = (await create()).body.data;
      for (const [method, path] of routes(created._id)) {
        await t.http[method](path).send(body()).expect(401);
        const forbidden = await t.http[method](path)
          .set(bearer(callsMember.token))
          .send(body({ name: 'Forbidden' }));
        expect({ path, method, status: forbidden.status }).toEqual({ path, method, status: 403 });
      }
      expect(await rowOf(created._id)).toMatchObject({ name: 'CRM sync' });
    });

    it('hides other organizations’ webhooks from GET', async () => {
      const theirs = (await create(body({ name: 'Theirs' }), other.token)).body.data;
      await t.http.get(`/api/webhooks/${theirs._id}`).set(bearer(admin.token)).expect(404);
      await t.http.get('/api/webhooks/zzz').set(bearer(admin.token)).expect(400);
      const list = await t.http.get('/api/webhooks?limit=100').set(bearer(admin.token));
      expect(list.body.data.webhooks.map((w: { _id: string }) => w._id)).not.toContain(theirs._id);
    });
  });
});

describe('webhooks resource with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (tests only)', () => {
  let t: TestApp;
  let admin: RegisteredAdmin;
  beforeAll(async () => {
    t = await startTestApp({
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      webhookDnsResolver: fakeDns,
    });
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    'https://localhost:8443/hook',
    'https://127.0.0.1:8443/hook',
    'https://private.example.com/hook',
    'https://[::1]:9443/hook',
  ])('accepts %s', async (url) => {
    await t.http.post('/api/webhooks').set(bearer(admin.token)).send(body({ url })).expect(201);
  });

  it('still requires https', async () => {
    const response = await t.http
      .post('/api/webhooks')
      .set(bearer(admin.token))
      .send(body({ url: 'http://localhost:8443/hook' }))
      .expect(422);
    expect(response.body.errorMessage).toMatch(/https/);
  });
});
