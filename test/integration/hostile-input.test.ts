import { randomUUID } from 'node:crypto';
import type { WebhookDnsResolver } from '../../src/modules/webhooks/ssrf';
import { CallingFactories } from '../support/calling-factories';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { createWebhook } from '../support/webhook-factories';

// Issue #18: every operation fuzzed with malformed input; these answered 500. Each must now be a
// 400 in the common envelope, with no SQL in it.
const ENVELOPE_KEYS = ['code', 'errorMessage', 'message', 'status'];
const NUL = 'a\u0000b';
const FAR_FUTURE = '+275760-09-13T00:00:00.000Z';

const nestedArrays = (depth: number): unknown[] => {
  let value: unknown[] = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return value;
};

const publicDns: WebhookDnsResolver = () =>
  Promise.resolve([{ address: '93.184.216.34', family: 4 }]);

interface Case {
  name: string;
  method: 'get' | 'post' | 'patch';
  path: () => string;
  body?: () => object | string;
  query?: Record<string, string>;
  anonymous?: boolean;
}

describe('hostile input answers 400 in the envelope, never 500 (issue #18)', () => {
  let t: TestApp;
  let admin: RegisteredAdmin;
  let webhookId: string;
  let batchId: string;
  let phoneId: string;
  const auth = () => ({ Authorization: `Bearer ${admin.token}` });

  beforeAll(async () => {
    t = await startTestApp({
      webhookDnsResolver: publicDns,
      // add-phone reaches the Telnyx client only with a key; nothing listens on that port.
      env: {
        PROVIDER_THREE_PUBLIC_KEY: Buffer.alloc(32, 1).toString('base64'),
        PROVIDER_THREE_API_URL: 'http://127.0.0.1:9',
      },
    });
    admin = await registerOrganization(t.http);
    webhookId = (await createWebhook(t, admin, { url: 'https://hooks.example.com/x' })).id;
    const make = new CallingFactories(t);
    phoneId = (await make.phone(admin.organizationId, admin.userId)).id;
    const batch = await make.batch(admin.organizationId, admin.userId, {
      callingNumbers: [phoneId],
    });
    batchId = batch.id;
    const [record] = await make.callRecords(batch, [{ name: 'Ann' }]);
    await make.phoneLog(record, { callDuration: 61, transcript: 'hello' });
  });
  afterAll(async () => {
    await t.close();
  });

  const webhookBody = (overrides: object) => ({
    name: 'hook',
    url: 'https://hooks.example.com/y',
    events: ['call.completed'],
    ...overrides,
  });
  const registerBody = (overrides: object) => ({
    organizationName: 'Org',
    name: 'Ada',
    email: `ada-${randomUUID()}@example.com`,
    password: 'a long password',
    ...overrides,
  });
  const userBody = (overrides: object) => ({
    name: 'Mia',
    email: `mia-${randomUUID()}@example.com`,
    password: 'member password 1',
    role: 'member',
    permissions: [],
    ...overrides,
  });
  const details = () => `/api/call/batch-details/${batchId}`;
  const deliveries = () => `/api/webhooks/${webhookId}/deliveries`;

  const cases: Case[] = [
    // 1. NUL in a text field or a search
    {
      name: 'NUL in api-key name',
      method: 'post',
      path: () => '/api/api-keys',
      body: () => ({ name: NUL }),
    },
    {
      name: 'NUL in user name',
      method: 'post',
      path: () => '/api/users',
      body: () => userBody({ name: NUL }),
    },
    {
      name: 'NUL in webhook name',
      method: 'post',
      path: () => '/api/webhooks',
      body: () => webhookBody({ name: NUL }),
    },
    {
      name: 'NUL in webhook PATCH',
      method: 'patch',
      path: () => `/api/webhooks/${webhookId}`,
      body: () => ({ name: NUL }),
    },
    {
      name: 'NUL in batchName',
      method: 'post',
      path: () => '/api/call/createBatch',
      body: () => ({ batchName: NUL, callingNumbers: [phoneId] }),
    },
    {
      name: 'NUL in DNC type',
      method: 'post',
      path: () => '/api/dnc/add',
      body: () => ({ phoneNumber: '+14155550100', batchId, requestUUID: randomUUID(), type: NUL }),
    },
    {
      name: 'NUL in organizationName',
      method: 'post',
      path: () => '/api/auth/register',
      body: () => registerBody({ organizationName: NUL }),
      anonymous: true,
    },
    {
      name: 'NUL in register name',
      method: 'post',
      path: () => '/api/auth/register',
      body: () => registerBody({ name: NUL }),
      anonymous: true,
    },
    {
      name: 'NUL in DNC search',
      method: 'get',
      path: () => '/api/dnc',
      query: { search: '\u0000' },
    },
    {
      name: 'NUL in batches search',
      method: 'get',
      path: () => `/api/call/batches/${admin.userId}`,
      query: { search: '\u0000' },
    },
    {
      name: 'NUL in batch-details search',
      method: 'get',
      path: details,
      query: { search: '\u0000' },
    },
    {
      name: 'NUL in batch-details filter',
      method: 'get',
      path: details,
      query: { filter: '{"transcript":"a\\u0000"}' },
    },
    {
      name: 'NUL in deliveries eventType',
      method: 'get',
      path: deliveries,
      query: { eventType: '\u0000' },
    },
    // 2. Unpaired surrogates (URIError from the e-mail check, on unauthenticated routes)
    {
      name: 'lone surrogate e-mail on login',
      method: 'post',
      path: () => '/api/auth/login',
      body: () => ({ email: '\ud800', password: 'x' }),
      anonymous: true,
    },
    {
      name: 'lone surrogate e-mail on register',
      method: 'post',
      path: () => '/api/auth/register',
      body: () => registerBody({ email: '\ud800' }),
      anonymous: true,
    },
    {
      name: 'reversed surrogates in user name',
      method: 'post',
      path: () => '/api/users',
      body: () => userBody({ name: '\udfff\ud800' }),
    },
    // 3. Values out of range
    {
      name: 'callDuration above int4',
      method: 'get',
      path: details,
      query: { filter: '{"callDuration":2147483648}' },
    },
    {
      name: 'callDuration of 13 digits',
      method: 'get',
      path: details,
      query: { filter: '{"callDuration":9999999999999}' },
    },
    {
      name: 'deliveries since year 275760',
      method: 'get',
      path: deliveries,
      query: { since: FAR_FUTURE },
    },
    {
      name: 'deliveries until year 275760',
      method: 'get',
      path: deliveries,
      query: { until: FAR_FUTURE },
    },
    {
      name: 'recover since year 275760',
      method: 'post',
      path: () => `/api/webhooks/${webhookId}/recover`,
      body: () => ({ since: FAR_FUTURE }),
    },
    // 4. null where a PATCH expects a value
    {
      name: 'PATCH webhook name null',
      method: 'patch',
      path: () => `/api/webhooks/${webhookId}`,
      body: () => ({ name: null }),
    },
    {
      name: 'PATCH webhook events null',
      method: 'patch',
      path: () => `/api/webhooks/${webhookId}`,
      body: () => ({ events: null }),
    },
    {
      name: 'PATCH webhook active null',
      method: 'patch',
      path: () => `/api/webhooks/${webhookId}`,
      body: () => ({ active: null }),
    },
    // Found by the fuzz gate: nesting that exhausts the validators' stack, credentials that
    // cannot travel in a provider's HTTP header
    {
      name: 'a body nested 100,000 levels deep',
      method: 'post',
      path: () => '/api/api-keys',
      // Sent as text: the test client's own JSON serializer would exhaust its stack.
      body: () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    },
    {
      name: 'a field nested 2,000 levels deep',
      method: 'post',
      path: () => '/api/webhooks',
      body: () => webhookBody({ name: nestedArrays(2_000) }),
    },
    {
      name: 'add-phone authToken with emoji and an RTL override',
      method: 'post',
      path: () => '/api/call/add-phone',
      body: () => ({
        userId: admin.userId,
        phoneNumber: '+14155550123',
        integration: 'provider_three',
        authToken: '\u202eevil \u{1F469}\u200d\u{1F467}',
        accSId: '',
      }),
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    let request = t.http[c.method](c.path());
    if (!c.anonymous) request = request.set(auth());
    if (c.query) request = request.query(c.query);
    const body = c.body?.();
    if (typeof body === 'string') request = request.set('Content-Type', 'application/json');
    const response = await (body === undefined ? request : request.send(body));
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 400,
      body: { status: false, code: 400 },
    });
    expect(
      Object.keys(response.body)
        .filter((key) => key !== 'errors')
        .sort(),
    ).toEqual(ENVELOPE_KEYS);
    expect(JSON.stringify(response.body)).not.toMatch(/select |insert |update |\$\d/i);
  });

  it('NUL in a path parameter answers 400', async () => {
    const response = await t.http.get('/api/webhooks/%00/deliveries').set(auth());
    expect(response.status).toBe(400);
  });

  it('NUL in a multipart form field answers 400 and creates nothing', async () => {
    const response = await t.http
      .post('/api/call/createBatch')
      .set(auth())
      .field('batchName', NUL)
      .field('callingNumbers', phoneId);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'batchName' })]);
  });

  it('a CSV row with NUL is a rejected row, the others are imported', async () => {
    const csv = 'phoneNumber,note\n+14155550111,fine\n+14155550112,bad \u0000 cell\n';
    const response = await t.http
      .post(`/api/call/batches/${batchId}/contacts`)
      .set(auth())
      .attach('file', Buffer.from(csv), { filename: 'c.csv', contentType: 'text/csv' });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ imported: 1, rejected: 1 });
    expect(response.body.data.errors).toEqual([
      expect.objectContaining({ row: 2, reason: 'invalid_field', field: 'note' }),
    ]);
  });

  it('still accepts the edges of each range and a PATCH without the field', async () => {
    await t.http
      .get(details())
      .set(auth())
      .query({ filter: '{"callDuration":2147483647}' })
      .expect(200);
    await t.http
      .get(deliveries())
      .set(auth())
      .query({ since: '1970-01-01T00:00:00.000Z', until: '9999-12-31T00:00:00.000Z' })
      .expect(200);
    const patched = await t.http
      .patch(`/api/webhooks/${webhookId}`)
      .set(auth())
      .send({ active: false })
      .expect(200);
    expect(patched.body.data).toMatchObject({ name: 'test hook', active: false });
  });
});
