import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { MessagingNumbersRepository } from '../../src/modules/messaging/messaging-numbers.repository';
import { messagingIntegrations } from '../../src/modules/messaging/messaging.schema';
import type { ResolvedAddress } from '../../src/modules/webhooks/ssrf';
import { GraphFake } from '../fakes';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { connectBusinessNumber } from '../support/messaging';
import { startTestApp, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const VERIFY_TOKEN = 'verify-token-of-the-tests';

/** Public names the SSRF check sees (no DNS in tests); anything else does not resolve. */
const ADDRESSES: Record<string, ResolvedAddress[]> = {
  'hooks.example.com': [{ address: '93.184.216.34', family: 4 }],
  'intranet.example.com': [{ address: '10.1.2.3', family: 4 }],
};
const resolver = (host: string) =>
  ADDRESSES[host] ? Promise.resolve(ADDRESSES[host]) : Promise.reject(new Error('ENOTFOUND'));

describe('messaging integrations', () => {
  let graph: GraphFake;
  let t: TestApp;
  let admin: RegisteredAdmin;
  let other: RegisteredAdmin;

  beforeAll(async () => {
    graph = await GraphFake.start();
    t = await startTestApp({
      env: { MESSAGING_API_URL: graph.baseUrl, MESSAGING_VERIFY_TOKEN: VERIFY_TOKEN },
      webhookDnsResolver: resolver,
    });
    admin = await registerOrganization(t.http);
    other = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
    await graph.close();
  });

  const connect = (body: object, token = admin.token) =>
    t.http.post('/api/messaging/messaging-integration').set(bearer(token)).send(body);
  const connected = (as = admin) => connectBusinessNumber(t.http, graph, as.token);
  const storedRow = async (phoneNumberId: string) =>
    (
      await t.app
        .get(Database)
        .db.select()
        .from(messagingIntegrations)
        .where(eq(messagingIntegrations.phoneNumberId, phoneNumberId))
    )[0];

  describe('POST /api/messaging/messaging-integration', () => {
    it('checks token and number at the platform, subscribes the app, and saves (201)', async () => {
      const { account, token } = graph.addAccount({ numbers: 2 });
      const number = account.numbers[1];
      graph.clearRequests();
      const response = await connect({
        phoneNumberId: number.id,
        accessToken: token,
        businessAccountId: account.id,
        displayName: ' Sales line ',
      }).expect(201);
      expect(response.body).toEqual({
        message: 'Messaging integration created',
        status: true,
        code: 201,
        data: {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          phoneNumberId: number.id,
          phoneNumber: `+${number.display_phone_number.replace(/\D/g, '')}`,
          displayName: 'Sales line',
          status: 'connected',
          businessAccountId: account.id,
          webhookUrl: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      expect(JSON.stringify(response.body)).not.toContain(token);
      expect(account.subscribed).toBe(true);
      // Bearer header only, on the pinned Graph version; never the token in a URL.
      for (const request of graph.requests) {
        expect(request.headers.authorization).toBe(`Bearer ${token}`);
        expect(request.path).toMatch(/^\/v23\.0\//);
        expect(JSON.stringify(request.query)).not.toContain(token);
      }
      const row = await storedRow(number.id);
      expect(row.organizationId).toBe(admin.organizationId);
      expect(row.accessToken).not.toContain(token);
      expect(row.accessToken).toMatch(/^v1\./);
    });

    it('takes the platform’s verified name when no displayName is sent', async () => {
      const { number } = await connected();
      expect((await storedRow(number.id)).displayName).toBe(number.verified_name);
    });

    it('answers 409 for a number already connected, here or to another organization', async () => {
      const { account, token, number } = await connected();
      const body = { phoneNumberId: number.id, accessToken: token, businessAccountId: account.id };
      const again = await connect(body).expect(409);
      expect(again.body).toMatchObject({ status: false, code: 409 });
      await connect(body, other.token).expect(409);
    });

    it('answers 400 when the platform refuses the access token (code 190)', async () => {
      const { account } = graph.addAccount();
      const response = await connect({
        phoneNumberId: account.numbers[0].id,
        accessToken: 'EAAGnot-a-token-the-platform-knows',
        businessAccountId: account.id,
      }).expect(400);
      expect(response.body.errorMessage).toMatch(/Invalid access token/);
      expect(response.body.errorMessage).toMatch(/code 190/);
      expect(JSON.stringify(response.body)).not.toContain('not-a-token-the-platform-knows');
      expect(account.subscribed).toBe(false);
    });

    it('answers 400 for an access token that could not travel in a header (the OpenAPI example had an ellipsis), asking the platform nothing', async () => {
      const { account } = graph.addAccount();
      const before = graph.requests.length;
      for (const accessToken of ['EAAG…', 'EAAG token', 'EAAGé']) {
        const response = await connect({
          phoneNumberId: account.numbers[0].id,
          accessToken,
          businessAccountId: account.id,
        }).expect(400);
        expect(response.body.errors).toEqual([
          { field: 'accessToken', message: 'accessToken must be printable ASCII without spaces' },
        ]);
        expect(JSON.stringify(response.body)).not.toContain('ERR_INVALID_CHAR');
      }
      expect(graph.requests.length).toBe(before);
      expect(account.subscribed).toBe(false);
    });

    it('answers 400 when the number is not one of the business account’s', async () => {
      const first = graph.addAccount();
      const second = graph.addAccount({ token: first.token });
      const response = await connect({
        phoneNumberId: second.account.numbers[0].id,
        accessToken: first.token,
        businessAccountId: first.account.id,
      }).expect(400);
      expect(response.body.errorMessage).toMatch(/does not belong to business account/);
      expect(first.account.subscribed).toBe(false);
    });

    it('answers 404 for a number the platform does not know', async () => {
      const { account, token } = graph.addAccount();
      const response = await connect({
        phoneNumberId: '999999999999999',
        accessToken: token,
        businessAccountId: account.id,
      }).expect(404);
      expect(response.body.errorMessage).toMatch(/not found at the messaging platform/);
    });

    it('answers 502 when the platform fails, saving nothing', async () => {
      const { account, token } = graph.addAccount();
      graph.failNext(3, 500);
      await connect({
        phoneNumberId: account.numbers[0].id,
        accessToken: token,
        businessAccountId: account.id,
      }).expect(502);
      expect(await storedRow(account.numbers[0].id)).toBeUndefined();
    });

    it.each([
      ['a non-numeric phoneNumberId', { phoneNumberId: 'abc' }, 'phoneNumberId'],
      ['no accessToken', { accessToken: undefined }, 'accessToken'],
      ['a non-numeric businessAccountId', { businessAccountId: '12a' }, 'businessAccountId'],
      ['a blank displayName', { displayName: '  ' }, 'displayName'],
    ])('answers 400 for %s', async (_case, overrides, field) => {
      const body = {
        phoneNumberId: '106540352242922',
        accessToken: 'EAAG-token',
        businessAccountId: '102290129340398',
        ...overrides,
      };
      const response = await connect(body).expect(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('answers 401 without credentials and 403 without the messaging permission', async () => {
      await t.http.post('/api/messaging/messaging-integration').send({}).expect(401);
      const member = await createMember(t.http, admin.token, ['calls']);
      await connect({}, member.token).expect(403);
    });
  });

  describe('GET /api/messaging/messaging-number', () => {
    it('lists the organization’s numbers only, never a token', async () => {
      const org = await registerOrganization(t.http);
      const mine = await connected(org);
      await connected(other);
      const member = await createMember(t.http, org.token, ['messaging']);
      const response = await t.http
        .get('/api/messaging/messaging-number')
        .set(bearer(member.token))
        .expect(200);
      expect(response.body.data.map((n: { phoneNumberId: string }) => n.phoneNumberId)).toEqual([
        mine.number.id,
      ]);
      expect(JSON.stringify(response.body)).not.toContain(mine.token);
      expect(response.body.data[0]).not.toHaveProperty('accessToken');
    });
  });

  describe('PUT /api/messaging/update-integration/{phoneNumberId}', () => {
    const update = (phoneNumberId: string, body: object, token = admin.token) =>
      t.http
        .put(`/api/messaging/update-integration/${phoneNumberId}`)
        .set(bearer(token))
        .send(body);

    it('changes only the displayName sent, without asking the platform', async () => {
      const { account, number } = await connected();
      const before = await storedRow(number.id);
      graph.clearRequests();
      const response = await update(number.id, { displayName: 'Renamed' }).expect(200);
      expect(response.body.data).toMatchObject({
        _id: before.id,
        phoneNumberId: number.id,
        phoneNumber: before.phoneNumber,
        displayName: 'Renamed',
        status: 'connected',
        businessAccountId: account.id,
      });
      expect(graph.requests).toHaveLength(0);
      expect((await storedRow(number.id)).accessToken).toBe(before.accessToken);
    });

    it('checks a new token at the platform and stores it sealed', async () => {
      const { account, number, token } = await connected();
      const newToken = 'EAAG-rotated-token-0123456789';
      graph.grant(newToken, account.id);
      graph.revoke(token);
      const response = await update(number.id, { accessToken: newToken }).expect(200);
      expect(JSON.stringify(response.body)).not.toContain(newToken);
      const row = await storedRow(number.id);
      expect(row.accessToken).not.toContain(newToken);
      graph.clearRequests();
      await t.http
        .get(`/api/messaging/get-templates/${number.id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(graph.requests[0].headers.authorization).toBe(`Bearer ${newToken}`);
    });

    it('answers 400 for a new token the platform refuses, keeping the old one', async () => {
      const { number } = await connected();
      const before = await storedRow(number.id);
      const response = await update(number.id, { accessToken: 'EAAG-unknown' }).expect(400);
      expect(response.body.errorMessage).toMatch(/Invalid access token/);
      expect((await storedRow(number.id)).accessToken).toBe(before.accessToken);
    });

    it('answers 409 when the number does not belong to the new business account', async () => {
      const { number, token } = await connected();
      const elsewhere = graph.addAccount({ token });
      const response = await update(number.id, { businessAccountId: elsewhere.account.id }).expect(
        409,
      );
      expect(response.body.errorMessage).toMatch(/does not belong to business account/);
    });

    it('answers 404 for a number of another organization or none, 400 for a malformed id', async () => {
      const theirs = await connected(other);
      await update(theirs.number.id, { displayName: 'Mine now' }).expect(404);
      await update('123456789', { displayName: 'x' }).expect(404);
      await update('not-an-id', { displayName: 'x' }).expect(400);
      await update(theirs.number.id, { displayName: null }, other.token).expect(400);
    });

    it('marks reauth_required when the stored token is refused, and a new token reconnects', async () => {
      const { account, number, token } = await connected();
      graph.revoke(token);
      await t.http
        .get(`/api/messaging/get-templates/${number.id}`)
        .set(bearer(admin.token))
        .expect(409);
      expect((await storedRow(number.id)).status).toBe('reauth_required');
      const fresh = 'EAAG-after-reauth-0123456789';
      graph.grant(fresh, account.id);
      const response = await update(number.id, { accessToken: fresh }).expect(200);
      expect(response.body.data.status).toBe('connected');
    });
  });

  describe('PUT /api/messaging/update-webhook-url', () => {
    const setUrl = (body: object, token = admin.token) =>
      t.http.put('/api/messaging/update-webhook-url').set(bearer(token)).send(body);

    it('sets the per-number override at the platform and reads it back', async () => {
      const { number } = await connected();
      const webhookUrl = 'https://hooks.example.com/messaging/in';
      const response = await setUrl({ phoneNumberId: number.id, webhookUrl }).expect(200);
      expect(response.body).toEqual({
        message: 'Messaging webhook URL updated',
        status: true,
        code: 200,
        data: { phoneNumberId: number.id, webhookUrl },
      });
      expect(number.override).toEqual({ url: webhookUrl, verifyToken: VERIFY_TOKEN });
      expect((await storedRow(number.id)).webhookUrl).toBe(webhookUrl);
    });

    it.each([
      ['plain http', 'http://hooks.example.com/in'],
      ['a private address', 'https://intranet.example.com/in'],
      ['a loopback literal', 'https://127.0.0.1/in'],
      ['a host that does not resolve', 'https://nowhere.example.com/in'],
    ])('answers 422 for %s, changing nothing at the platform', async (_case, webhookUrl) => {
      const { number } = await connected();
      const response = await setUrl({ phoneNumberId: number.id, webhookUrl }).expect(422);
      expect(response.body.errorMessage).toMatch(/Invalid webhook URL/);
      expect(number.override).toBeUndefined();
    });

    it('answers 404 for another organization’s number and 400 for a missing field', async () => {
      const theirs = await connected(other);
      await setUrl({
        phoneNumberId: theirs.number.id,
        webhookUrl: 'https://hooks.example.com/x',
      }).expect(404);
      expect(theirs.number.override).toBeUndefined();
      await setUrl({ phoneNumberId: theirs.number.id }).expect(400);
    });
  });

  describe('POST /api/messaging/validate-messaging-number', () => {
    const validate = (phoneNumber: unknown, token = admin.token) =>
      t.http
        .post('/api/messaging/validate-messaging-number')
        .set(bearer(token))
        .send({ phoneNumber });

    it.each([
      ['a UK mobile', '+44 7911 123456', '+447911123456', true],
      ['a US number (fixed or mobile), + optional', '14155552671', '+14155552671', true],
      ['a London fixed line', '+442079460000', '+442079460000', false],
      ['a number no plan assigns', '+1 555 0100', '+15550100', false],
    ])('answers %s', async (_case, input, phoneNumber, isValid) => {
      const response = await validate(input).expect(200);
      expect(response.body).toEqual({
        message: 'Messaging number validated',
        status: true,
        code: 200,
        data: { phoneNumber, isValid },
      });
    });

    it('answers false for a number the platform reported undeliverable, in that organization only', async () => {
      await t.app
        .get(MessagingNumbersRepository)
        .markUndeliverable(admin.organizationId, '+447911123457', 131026, new Date());
      expect((await validate('+447911123457').expect(200)).body.data.isValid).toBe(false);
      expect((await validate('+447911123457', other.token).expect(200)).body.data.isValid).toBe(
        true,
      );
    });

    it.each([
      ['letters', 'call me'],
      ['nothing', undefined],
      ['a number type', 447911123456],
    ])('answers 400 for %s', async (_case, input) => {
      const response = await validate(input).expect(400);
      expect(response.body).toMatchObject({ status: false, code: 400 });
    });
  });
});
