import { eq, inArray } from 'drizzle-orm';
import { Database } from '../../src/database';
import { phoneNumbers } from '../../src/modules/phones/phones.schema';
import { ProviderAccountsBackfill } from '../../src/modules/phones/provider-accounts.backfill';
import { PlivoFake, TelnyxFake, TwilioFake } from '../fakes';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { LogCapture } from '../support/log-capture';
import { startTestApp, type TestApp } from '../support/test-app';

interface Seeded {
  accSId: string;
  authToken: string;
  number: string;
  expectedAuth: string;
}

interface ProviderCase {
  integration: 'provider_one' | 'provider_two' | 'provider_three';
  seed(): Seeded;
  /** Asserts the provider now sends this number's calls to our callback URLs. */
  expectWired(seeded: Seeded, phoneId: string): void;
  /** Asserts the exact configuration calls of a first set-up. */
  expectSetupCalls(seeded: Seeded): void;
  /** Changes the provider's configuration behind Switchboard's back. */
  breakWiring(seeded: Seeded): void;
  /** The last set-up step (attaching the number) answers `status`, after anything was created. */
  failWebhookSetup(seeded: Seeded, status: number): void;
  /** Asserts nothing of ours is configured at the provider for this number. */
  expectNothingLeft(seeded: Seeded): void;
  /** The provider's first read (the credentials check) answers `status` with `message`. */
  failCredentialsCheck(seeded: Seeded, status: number, message: string): void;
}

let sequence = 1000;
const nextNumber = () => `+1415555${(sequence += 1)}`;
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('phone numbers on three telephony protocols', () => {
  const logs = new LogCapture();
  let plivo: PlivoFake;
  let twilio: TwilioFake;
  let telnyx: TelnyxFake;
  let t: TestApp;
  let admin: RegisteredAdmin;
  let publicBase: string;

  beforeAll(async () => {
    [plivo, twilio, telnyx] = await Promise.all([
      PlivoFake.start(),
      TwilioFake.start(),
      TelnyxFake.start(),
    ]);
    t = await startTestApp({
      redis: true,
      logStream: logs,
      env: {
        LOG_LEVEL: 'debug',
        PUBLIC_BASE_URL: 'https://switchboard.example.com',
        PROVIDER_ONE_API_URL: plivo.baseUrl,
        PROVIDER_TWO_API_URL: twilio.baseUrl,
        PROVIDER_THREE_API_URL: telnyx.baseUrl,
        PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
      },
    });
    publicBase = t.config.http.publicBaseUrl;
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([plivo.close(), twilio.close(), telnyx.close()]);
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const addPhone = (body: object, token = admin.token) =>
    t.http.post('/api/call/add-phone').set(bearer(token)).send(body);
  const listPhones = async (token = admin.token) =>
    (await t.http.get('/api/call/phones').set(bearer(token)).expect(200)).body.data as {
      _id: string;
      phoneNumber: string;
      accountCallsPerSecond: number;
    }[];
  const callbackPattern = (integration: string, phoneId: string, kind: string) =>
    new RegExp(
      `^${publicBase}/api/telephony/${integration}/${phoneId}/${kind}\\?token=[A-Za-z0-9_-]{43}$`,
    );

  const cases: ProviderCase[] = [
    {
      integration: 'provider_one',
      seed() {
        const account = plivo.addAccount();
        const number = nextNumber();
        plivo.addNumber(account, number);
        return {
          accSId: account.authId,
          authToken: account.authToken,
          number,
          expectedAuth: basic(account.authId, account.authToken),
        };
      },
      expectWired(seeded, phoneId) {
        const number = plivo.number(seeded.accSId, seeded.number)!;
        const app = plivo
          .applications(seeded.accSId)
          .find((candidate) => candidate.appId === number.appId)!;
        expect(app.appName).toBe(`switchboard_${phoneId}`);
        expect(app.answerUrl).toMatch(callbackPattern('provider_one', phoneId, 'answer'));
        expect(app.hangupUrl).toMatch(callbackPattern('provider_one', phoneId, 'status'));
      },
      expectSetupCalls(seeded) {
        const number = plivo.number(seeded.accSId, seeded.number)!;
        const setup = plivo.requests.filter(
          (r) => r.path.startsWith(`/v1/Account/${seeded.accSId}/`) && r.method === 'POST',
        );
        expect(setup.map((r) => r.path)).toEqual([
          `/v1/Account/${seeded.accSId}/Application/`,
          `/v1/Account/${seeded.accSId}/Number/${seeded.number.slice(1)}/`,
        ]);
        expect(setup[1].body).toEqual({ app_id: number.appId });
      },
      breakWiring(seeded) {
        plivo.number(seeded.accSId, seeded.number)!.appId = null;
      },
      failWebhookSetup(seeded, status) {
        const path = `/Number/${seeded.number.slice(1)}/`;
        plivo.failNext(status >= 500 ? 3 : 1, status, { method: 'POST', path });
      },
      expectNothingLeft(seeded) {
        expect(plivo.applications(seeded.accSId)).toEqual([]);
        expect(plivo.number(seeded.accSId, seeded.number)!.appId).toBeNull();
      },
      failCredentialsCheck(seeded, status, message) {
        plivo.failNext(
          3,
          status,
          { method: 'GET', path: `/v1/Account/${seeded.accSId}/` },
          message,
        );
      },
    },
    {
      integration: 'provider_two',
      seed() {
        const account = twilio.addAccount();
        const number = nextNumber();
        twilio.addNumber(account, number);
        return {
          accSId: account.sid,
          authToken: account.authToken,
          number,
          expectedAuth: basic(account.sid, account.authToken),
        };
      },
      expectWired(seeded, phoneId) {
        const number = twilio.number(seeded.accSId, seeded.number)!;
        expect(number.voiceUrl).toMatch(callbackPattern('provider_two', phoneId, 'answer'));
        expect(number.statusCallback).toMatch(callbackPattern('provider_two', phoneId, 'status'));
      },
      expectSetupCalls(seeded) {
        const number = twilio.number(seeded.accSId, seeded.number)!;
        const update = twilio.requestsTo(
          'POST',
          new RegExp(`/IncomingPhoneNumbers/${number.sid}\\.json$`),
        );
        expect(update).toHaveLength(1);
        expect(update[0].body).toMatchObject({
          VoiceMethod: 'POST',
          StatusCallbackMethod: 'POST',
          VoiceApplicationSid: '',
        });
        expect(update[0].headers['content-type']).toContain('application/x-www-form-urlencoded');
      },
      breakWiring(seeded) {
        twilio.number(seeded.accSId, seeded.number)!.voiceUrl =
          'https://attacker.example.com/voice';
      },
      failWebhookSetup(_seeded, status) {
        const path = /IncomingPhoneNumbers\/PN\w+\.json$/;
        twilio.failNext(status >= 500 ? 3 : 1, status, { method: 'POST', path });
      },
      expectNothingLeft(seeded) {
        const number = twilio.number(seeded.accSId, seeded.number)!;
        expect(`${number.voiceUrl} ${number.statusCallback}`).not.toContain(publicBase);
      },
      failCredentialsCheck(seeded, status, message) {
        const path = `/Accounts/${seeded.accSId}.json`;
        twilio.failNext(3, status, { method: 'GET', path }, message);
      },
    },
    {
      integration: 'provider_three',
      seed() {
        const account = telnyx.addAccount();
        const number = nextNumber();
        telnyx.addNumber(account, number);
        return {
          accSId: '',
          authToken: account.apiKey,
          number,
          expectedAuth: `Bearer ${account.apiKey}`,
        };
      },
      expectWired(seeded, phoneId) {
        const number = telnyx.number(seeded.authToken, seeded.number)!;
        const app = telnyx.application(seeded.authToken, number.connectionId!)!;
        expect(app.webhookEventUrl).toMatch(callbackPattern('provider_three', phoneId, 'status'));
        expect(app.outbound.outboundVoiceProfileId).toBeTruthy();
      },
      expectSetupCalls(seeded) {
        const number = telnyx.number(seeded.authToken, seeded.number)!;
        const filter = telnyx.requestsTo('GET', '/v2/phone_numbers').at(-1)!;
        expect(filter.query['filter[phone_number]']).toBe(seeded.number.slice(1));
        expect(telnyx.requestsTo('PATCH', `/v2/phone_numbers/${number.id}`).at(-1)!.body).toEqual({
          connection_id: number.connectionId,
        });
      },
      breakWiring(seeded) {
        telnyx.number(seeded.authToken, seeded.number)!.connectionId = null;
      },
      failWebhookSetup(seeded, status) {
        const number = telnyx.number(seeded.authToken, seeded.number)!;
        const path = `/v2/phone_numbers/${number.id}`;
        telnyx.failNext(status >= 500 ? 3 : 1, status, { method: 'PATCH', path });
      },
      expectNothingLeft(seeded) {
        expect(telnyx.account(seeded.authToken).applications.size).toBe(0);
        expect(telnyx.number(seeded.authToken, seeded.number)!.connectionId).toBeNull();
      },
      failCredentialsCheck(_seeded, status, message) {
        telnyx.failNext(3, status, { method: 'GET', path: '/v2/balance' }, message);
      },
    },
  ];

  describe.each(cases)('$integration', (provider) => {
    const fake = () =>
      ({ provider_one: plivo, provider_two: twilio, provider_three: telnyx })[provider.integration];
    const body = (seeded: Seeded, overrides: object = {}) => ({
      userId: admin.userId,
      phoneNumber: seeded.number,
      integration: provider.integration,
      authToken: seeded.authToken,
      accSId: seeded.accSId,
      ...overrides,
    });

    it('adds a number: validated, wired to our callbacks with the account auth, stored in E.164', async () => {
      const seeded = provider.seed();
      fake().clearRequests();
      const response = await addPhone(body(seeded, { phoneNumber: seeded.number.slice(1) })).expect(
        201,
      );
      expect(response.body).toMatchObject({
        message: 'Phone number added',
        status: true,
        code: 201,
        errorMessage: '',
      });
      const data = response.body.data;
      expect(Object.keys(data).sort()).toEqual([
        '_id',
        'createdAt',
        'integration',
        'phoneNumber',
        'userId',
      ]);
      expect(data).toMatchObject({
        userId: admin.userId,
        phoneNumber: seeded.number,
        integration: provider.integration,
      });
      provider.expectWired(seeded, data._id);
      provider.expectSetupCalls(seeded);
      const authHeaders = new Set(fake().requests.map((request) => request.headers.authorization));
      expect([...authHeaders]).toEqual([seeded.expectedAuth]);
      expect((await listPhones()).map((phone) => phone._id)).toContain(data._id);
    });

    it('answers 400 for a number already added for the user, with or without +', async () => {
      const seeded = provider.seed();
      await addPhone(body(seeded)).expect(201);
      const duplicate = await addPhone(
        body(seeded, { phoneNumber: seeded.number.slice(1) }),
      ).expect(400);
      expect(duplicate.body).toMatchObject({
        status: false,
        code: 400,
        errorMessage: 'Phone number already exists for this user',
      });
    });

    it('answers 400 for bad credentials and saves nothing', async () => {
      const seeded = provider.seed();
      const before = await listPhones();
      const response = await addPhone(body(seeded, { authToken: 'wrong-token' })).expect(400);
      expect(response.body.errorMessage).toMatch(/^Invalid provider credentials/);
      expect(await listPhones()).toEqual(before);
    });

    it('answers 400 for a number the account does not own', async () => {
      const seeded = provider.seed();
      const response = await addPhone(body(seeded, { phoneNumber: nextNumber() })).expect(400);
      expect(response.body.errorMessage).toMatch(/^Phone number not owned by the provider account/);
    });

    it('answers 502 and leaves nothing behind on either side when the provider fails mid set-up', async () => {
      const seeded = provider.seed();
      const before = await listPhones();
      provider.failWebhookSetup(seeded, 503);
      const response = await addPhone(body(seeded)).expect(502);
      expect(response.body).toMatchObject({ status: false, code: 502 });
      expect(response.body.errorMessage).toMatch(
        /^Telephony provider unavailable: \w+ answered 503/,
      );
      expect(await listPhones()).toEqual(before);
      provider.expectNothingLeft(seeded);
    });

    it('answers 500 (webhook set-up failure) and leaves nothing behind when the provider refuses the set-up', async () => {
      const seeded = provider.seed();
      const before = await listPhones();
      provider.failWebhookSetup(seeded, 400);
      const response = await addPhone(body(seeded)).expect(500);
      expect(response.body.errorMessage).toMatch(/^Webhook set-up failure: \w+ answered 400/);
      expect(await listPhones()).toEqual(before);
      provider.expectNothingLeft(seeded);
    });

    it("answers 502 with the provider's reason and no secret when it is down, on add and on verify", async () => {
      const seeded = provider.seed();
      const echo = `maintenance, rejected key ${seeded.authToken}`;
      provider.failCredentialsCheck(seeded, 503, echo);
      const added = await addPhone(body(seeded)).expect(502);
      expect(added.body).toMatchObject({ status: false, code: 502 });
      expect(added.body.errorMessage).toMatch(
        /^Telephony provider unavailable: \w+ answered 503: (.*: )?maintenance, rejected key \[redacted\]/,
      );
      expect(JSON.stringify(added.body)).not.toContain(seeded.authToken);

      const { _id } = (await addPhone(body(seeded)).expect(201)).body.data;
      provider.failCredentialsCheck(seeded, 500, echo);
      const verified = await t.http
        .post(`/api/call/phones/${_id}/verify`)
        .set(bearer(admin.token))
        .expect(502);
      expect(verified.body.errorMessage).toMatch(
        /^Telephony provider unavailable: \w+ answered 500/,
      );
      expect(JSON.stringify(verified.body)).not.toContain(seeded.authToken);
    });

    it('reports drift made behind our back, and repairs it on request', async () => {
      const seeded = provider.seed();
      const { _id } = (await addPhone(body(seeded)).expect(201)).body.data;
      const clean = await t.http
        .post(`/api/call/phones/${_id}/verify`)
        .set(bearer(admin.token))
        .expect(200);
      expect(clean.body.data).toMatchObject({
        credentialsValid: true,
        numberOwned: true,
        webhooksInSync: true,
        drift: [],
      });

      provider.breakWiring(seeded);
      const drifted = await t.http
        .post(`/api/call/phones/${_id}/verify`)
        .set(bearer(admin.token))
        .expect(200);
      expect(drifted.body.data).toMatchObject({ webhooksInSync: false, repaired: false });
      expect(drifted.body.data.drift.length).toBeGreaterThan(0);

      const repaired = await t.http
        .post(`/api/call/phones/${_id}/verify?repair=true`)
        .set(bearer(admin.token))
        .expect(200);
      expect(repaired.body.data).toMatchObject({ webhooksInSync: true, repaired: true });
      provider.expectWired(seeded, _id);
      const after = await t.http
        .post(`/api/call/phones/${_id}/verify`)
        .set(bearer(admin.token))
        .expect(200);
      expect(after.body.data.drift).toEqual([]);
    });

    it('deletes a number for an admin only, with { success, deletedId }', async () => {
      const seeded = provider.seed();
      const { _id } = (await addPhone(body(seeded)).expect(201)).body.data;
      const member = await createMember(t.http, admin.token, ['phones']);
      await t.http.delete(`/api/call/delete-phone/${_id}`).set(bearer(member.token)).expect(403);
      const deleted = await t.http
        .delete(`/api/call/delete-phone/${_id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(deleted.body).toEqual({ success: true, deletedId: _id });
      await t.http.delete(`/api/call/delete-phone/${_id}`).set(bearer(admin.token)).expect(404);
      expect((await listPhones()).map((phone) => phone._id)).not.toContain(_id);
    });
  });

  describe('rules shared by every provider', () => {
    it('answers 400 for a malformed user id, 404 for an unknown or foreign user', async () => {
      const seeded = cases[1].seed();
      const base = {
        phoneNumber: seeded.number,
        integration: 'provider_two',
        authToken: seeded.authToken,
        accSId: seeded.accSId,
      };
      const malformed = await addPhone({ ...base, userId: 'nope' }).expect(400);
      expect(malformed.body.errors).toEqual([
        { field: 'userId', message: 'Invalid userId format: expected a 24-character hex id' },
      ]);
      await addPhone({ ...base, userId: '65f1c0ffee0123456789abcd' }).expect(404);
      const other = await registerOrganization(t.http);
      await addPhone({ ...base, userId: other.userId }).expect(404);
    });

    it('answers 400 for an unknown integration or an invalid number', async () => {
      const seeded = cases[1].seed();
      const base = {
        userId: admin.userId,
        phoneNumber: seeded.number,
        integration: 'provider_two',
        authToken: seeded.authToken,
        accSId: seeded.accSId,
      };
      await addPhone({ ...base, integration: 'provider_four' }).expect(400);
      const invalid = await addPhone({ ...base, phoneNumber: '12' }).expect(400);
      expect(invalid.body.errorMessage).toMatch(/phoneNumber/);
    });

    it('links each number to its provider account, whose calls per second all its numbers share', async () => {
      const seeded = cases[1].seed();
      const second = nextNumber();
      twilio.addNumber(seeded.accSId, second);
      const base = {
        userId: admin.userId,
        integration: 'provider_two',
        authToken: seeded.authToken,
        accSId: seeded.accSId,
      };
      const cps = async (numbers: string[]) => {
        const listed = await listPhones();
        return numbers.map(
          (n) => listed.find((phone) => phone.phoneNumber === n)?.accountCallsPerSecond,
        );
      };
      await addPhone({ ...base, phoneNumber: seeded.number }).expect(201);
      // Twilio's default until the account says otherwise.
      expect(await cps([seeded.number])).toEqual([1]);
      for (const bad of [0, -1, 5000, 'fast', null]) {
        const refused = await addPhone({
          ...base,
          phoneNumber: second,
          accountCallsPerSecond: bad,
        });
        expect(refused.status).toBe(400);
        expect(refused.body.errors[0].field).toBe('accountCallsPerSecond');
      }
      expect((await listPhones()).map((phone) => phone.phoneNumber)).not.toContain(second);
      await addPhone({ ...base, phoneNumber: second, accountCallsPerSecond: 5 }).expect(201);
      // One account: the value given with the second number is the first number's too.
      expect(await cps([seeded.number, second])).toEqual([5, 5]);
      const rows = await t.app
        .get(Database)
        .db.select({ account: phoneNumbers.providerAccountId })
        .from(phoneNumbers)
        .where(inArray(phoneNumbers.phoneNumber, [seeded.number, second]));
      expect(new Set(rows.map((row) => row.account)).size).toBe(1);
      expect(rows[0].account).not.toBeNull();
    });

    it('links, at start, numbers added before accounts were kept', async () => {
      const seeded = cases[1].seed();
      const added = await addPhone({
        userId: admin.userId,
        phoneNumber: seeded.number,
        integration: 'provider_two',
        authToken: seeded.authToken,
        accSId: seeded.accSId,
      }).expect(201);
      const db = t.app.get(Database).db;
      const accountOf = async () =>
        (
          await db
            .select({ account: phoneNumbers.providerAccountId })
            .from(phoneNumbers)
            .where(eq(phoneNumbers.id, added.body.data._id))
        )[0].account;
      const linked = await accountOf();
      await db
        .update(phoneNumbers)
        .set({ providerAccountId: null })
        .where(eq(phoneNumbers.id, added.body.data._id));
      await t.app.get(ProviderAccountsBackfill).onApplicationBootstrap();
      expect(await accountOf()).toBe(linked);
    });

    it('keeps organizations apart and requires the phones permission', async () => {
      const seeded = cases[0].seed();
      const { _id } = (
        await addPhone({
          userId: admin.userId,
          phoneNumber: seeded.number,
          integration: 'provider_one',
          authToken: seeded.authToken,
          accSId: seeded.accSId,
        }).expect(201)
      ).body.data;
      const other = await registerOrganization(t.http);
      expect(await listPhones(other.token)).toEqual([]);
      await t.http.post(`/api/call/phones/${_id}/verify`).set(bearer(other.token)).expect(404);
      await t.http.delete(`/api/call/delete-phone/${_id}`).set(bearer(other.token)).expect(404);
      await t.http.delete('/api/call/delete-phone/not-an-id').set(bearer(admin.token)).expect(400);

      const withoutPermission = await createMember(t.http, admin.token, ['calls']);
      await t.http.get('/api/call/phones').set(bearer(withoutPermission.token)).expect(403);
      await addPhone({ userId: withoutPermission.userId }, withoutPermission.token).expect(403);
      const withPermission = await createMember(t.http, admin.token, ['phones']);
      expect((await listPhones(withPermission.token)).map((phone) => phone._id)).toContain(_id);
    });

    it('two concurrent adds of one number: one 201, one 400, and a single application at Telnyx', async () => {
      const account = telnyx.addAccount();
      const number = nextNumber();
      telnyx.addNumber(account, number);
      const request = {
        userId: admin.userId,
        phoneNumber: number,
        integration: 'provider_three',
        authToken: account.apiKey,
        accSId: '',
      };
      const responses = await Promise.all([addPhone(request), addPhone(request)]);
      expect(responses.map((response) => response.status).sort()).toEqual([201, 400]);
      const winner = responses.find((response) => response.status === 201)!;
      const loser = responses.find((response) => response.status === 400)!;
      expect(loser.body.errorMessage).toBe('Phone number already exists for this user');
      const apps = [...telnyx.account(account).applications.values()];
      expect(apps).toHaveLength(1);
      expect(telnyx.number(account, number)!.connectionId).toBe(apps[0].id);
      expect(apps[0].webhookEventUrl).toMatch(
        callbackPattern('provider_three', winner.body.data._id, 'status'),
      );
    });

    it('Telnyx: reuses the application named by accSId and repeats its name on update', async () => {
      const account = telnyx.addAccount();
      const number = nextNumber();
      telnyx.addNumber(account, number);
      const app = telnyx.addApplication(account, {
        applicationName: 'existing-app',
        webhookEventUrl: 'https://old.example.com',
      });
      const response = await addPhone({
        userId: admin.userId,
        phoneNumber: number,
        integration: 'provider_three',
        authToken: account.apiKey,
        accSId: app.id,
      }).expect(201);
      expect(telnyx.number(account, number)!.connectionId).toBe(app.id);
      expect(telnyx.application(account, app.id)!.webhookEventUrl).toMatch(
        callbackPattern('provider_three', response.body.data._id, 'status'),
      );
      expect(
        telnyx.requestsTo('PATCH', `/v2/call_control_applications/${app.id}`).at(-1)!.body,
      ).toMatchObject({ application_name: 'existing-app' });
      expect(telnyx.account(account).applications.size).toBe(1);
    });

    it('never lets a credential reach a response, a log line, Redis or a plain database column', async () => {
      const canary = `canary-token-${'x'.repeat(16)}`;
      const account = twilio.addAccount({ authToken: canary });
      const number = nextNumber();
      twilio.addNumber(account, number);
      const responses = [
        await addPhone({
          userId: admin.userId,
          phoneNumber: number,
          integration: 'provider_two',
          authToken: canary,
          accSId: account.sid,
        }).expect(201),
        await addPhone({
          userId: admin.userId,
          phoneNumber: number,
          integration: 'provider_two',
          authToken: canary,
          accSId: account.sid,
        }).expect(400),
        await addPhone({
          userId: admin.userId,
          phoneNumber: nextNumber(),
          integration: 'provider_two',
          authToken: canary,
          accSId: account.sid,
        }).expect(400),
        await t.http.get('/api/call/phones').set(bearer(admin.token)).expect(200),
      ];
      const phoneId = responses[0].body.data._id;
      responses.push(
        await t.http
          .post(`/api/call/phones/${phoneId}/verify`)
          .set(bearer(admin.token))
          .expect(200),
      );
      for (const response of responses) expect(JSON.stringify(response.body)).not.toContain(canary);
      expect(logs.text.length).toBeGreaterThan(0);
      expect(logs.text).not.toContain(canary);

      const { Redis } = await import('ioredis');
      const redis = new Redis(t.config.redis.url!);
      const keys = await redis.keys(`${t.config.redis.prefix}:*`);
      const dump = await Promise.all(keys.map((key) => redis.dumpBuffer(key)));
      redis.disconnect();
      expect(keys.length).toBeGreaterThan(0);
      expect(dump.map((value) => value?.toString('latin1') ?? '').join('')).not.toContain(canary);

      const { Client } = await import('pg');
      const client = new Client({ connectionString: t.database.url });
      await client.connect();
      const rows = await client.query('SELECT * FROM phone_numbers');
      await client.end();
      expect(JSON.stringify(rows.rows)).not.toContain(canary);
      expect(JSON.stringify(rows.rows)).not.toContain(account.sid);
    });
  });
});
