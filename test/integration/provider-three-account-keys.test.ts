import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { phoneLogs } from '../../src/modules/call-records/call-records.schema';
import { TelnyxFake } from '../fakes';
import type { TelnyxAccount } from '../fakes/telnyx.model';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { freePort } from '../support/free-port';
import { placedCall } from '../support/placed-call';
import { startTestApp, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

let sequence = 7000;
const nextNumber = () => `+1415557${(sequence += 1)}`;

/** Telnyx signs each account's callbacks with that account's own key (Mission Control "Public Key"). */
describe('provider_three callbacks verified with the key of the number’s Telnyx account', () => {
  let telnyx: TelnyxFake;
  let t: TestApp;
  let admin: RegisteredAdmin;

  beforeAll(async () => {
    telnyx = await TelnyxFake.start();
    const port = await freePort();
    t = await startTestApp({
      env: {
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        VOICE_RUNTIME: 'off',
        PROVIDER_THREE_API_URL: telnyx.baseUrl,
        // The fake's shared key: the accounts added without a key pair of their own sign with it.
        PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
      },
    });
    await t.app.listen(port, '127.0.0.1');
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t?.close();
    await telnyx?.close();
  });

  const bearer = () => ({ Authorization: `Bearer ${admin.token}` });
  const seed = (ownKeyPair: boolean) => {
    const account = telnyx.addAccount({ ownKeyPair });
    const number = nextNumber();
    telnyx.addNumber(account, number);
    return { account, number };
  };
  const place = (seeded: { account: TelnyxAccount; number: string }, publicKey?: string) =>
    placedCall(t, admin, {
      integration: 'provider_three',
      number: seeded.number,
      credentials: {
        accSId: '',
        authToken: seeded.account.apiKey,
        ...(publicKey === undefined ? {} : { publicKey }),
      },
    });
  const statusOf = async (logId: string) =>
    (
      await t.app
        .get(Database)
        .db.select({ callStatus: phoneLogs.callStatus })
        .from(phoneLogs)
        .where(eq(phoneLogs.id, logId))
    )[0].callStatus;
  /** The body Switchboard answered the call's last webhook with. */
  const lastAnswer = (callControlId: string) =>
    JSON.parse(telnyx.deliveries.filter((d) => d.callId === callControlId).at(-1)!.responseBody);
  const listed = async () =>
    (await t.http.get('/api/call/phones').set(bearer()).expect(200)).body.data as {
      _id: string;
      publicKey: string | null;
    }[];

  it("accepts each account's callbacks on its own number only, whatever the server's key", async () => {
    const a = seed(true);
    const b = seed(true);
    const shared = telnyx.addAccount();
    const callA = await place(a, a.account.keyPair.publicKey);
    const callB = await place(b, b.account.keyPair.publicKey);

    for (const [call, other] of [
      [callA, b],
      [callB, a],
    ] as const) {
      // The other customer's account signed it: refused in the envelope, nothing moves.
      const signingKey = other.account.keyPair.privateKey;
      expect(await telnyx.advanceCall(call.id, 'call.answered', {}, { signingKey })).toBe(401);
      expect(lastAnswer(call.id)).toMatchObject({ status: false, code: 401 });
      expect(await statusOf(call.log.id)).toBe('queued');
      // Nor does PROVIDER_THREE_PUBLIC_KEY open a number that has a key of its own.
      const serverKey = shared.keyPair.privateKey;
      expect(await telnyx.replayLastCallback(call.id, { signingKey: serverKey })).toBe(401);
      expect(await statusOf(call.log.id)).toBe('queued');
      // Telnyx retries, signed by the number's own account: accepted.
      expect(await telnyx.replayLastCallback(call.id)).toBe(200);
      expect(await statusOf(call.log.id)).toBe('in-progress');
    }

    const keys = new Map((await listed()).map((phone) => [phone._id, phone.publicKey]));
    expect(keys.get(callA.phone.id)).toBe(a.account.keyPair.publicKey);
    expect(keys.get(callB.phone.id)).toBe(b.account.keyPair.publicKey);
  });

  it('verifies a number added without a key of its own with PROVIDER_THREE_PUBLIC_KEY', async () => {
    const shared = seed(false);
    const other = seed(true);
    const call = await place(shared);

    const signingKey = other.account.keyPair.privateKey;
    expect(await telnyx.advanceCall(call.id, 'call.answered', {}, { signingKey })).toBe(401);
    expect(lastAnswer(call.id)).toMatchObject({ status: false, code: 401 });
    expect(await statusOf(call.log.id)).toBe('queued');
    expect(await telnyx.replayLastCallback(call.id)).toBe(200);
    expect(await statusOf(call.log.id)).toBe('in-progress');
    expect((await listed()).find((phone) => phone._id === call.phone.id)?.publicKey).toBeNull();
  });

  it('answers 400 in the envelope for a malformed key, or a key on another integration, and changes nothing', async () => {
    const { account, number } = seed(true);
    const before = await listed();
    telnyx.clearRequests();
    const body = {
      userId: admin.userId,
      phoneNumber: number,
      integration: 'provider_three',
      authToken: account.apiKey,
      accSId: '',
    };
    const raw = Buffer.from(account.keyPair.publicKey, 'base64');
    const malformed = [
      'not-a-key',
      raw.subarray(0, 31).toString('base64'),
      Buffer.alloc(32, 0xfb).toString('base64url'),
      // The SPKI (DER) form rather than the raw 32 bytes Mission Control shows.
      Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]).toString('base64'),
      null,
      42,
    ];
    for (const publicKey of malformed) {
      const response = await t.http
        .post('/api/call/add-phone')
        .set(bearer())
        .send({ ...body, publicKey })
        .expect(400);
      expect(response.body).toMatchObject({ status: false, code: 400 });
      expect(response.body.errors).toEqual([
        {
          field: 'publicKey',
          message: 'publicKey must be a 32-byte Ed25519 public key, base64 encoded',
        },
      ]);
    }
    const onTwilio = await t.http
      .post('/api/call/add-phone')
      .set(bearer())
      .send({
        ...body,
        integration: 'provider_two',
        accSId: 'AC0123',
        publicKey: account.keyPair.publicKey,
      })
      .expect(400);
    expect(onTwilio.body).toMatchObject({
      status: false,
      code: 400,
      errorMessage: 'publicKey applies to provider_three numbers only',
    });

    expect(telnyx.requests).toEqual([]);
    expect(telnyx.account(account).applications.size).toBe(0);
    expect(await listed()).toEqual(before);
  });
});
