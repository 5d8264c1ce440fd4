import { eq } from 'drizzle-orm';
import { createApp } from '../../src/create-app';
import { Database } from '../../src/database';
import { phoneLogs } from '../../src/modules/call-records/call-records.schema';
import { TelnyxFake } from '../fakes';
import { CallingFactories } from '../support/calling-factories';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { freePort } from '../support/free-port';
import { LogCapture } from '../support/log-capture';
import { placedCall } from '../support/placed-call';
import { startTestApp, type TestApp } from '../support/test-app';

// Its own file: nestjs-pino keeps one root logger per module registry, the first app's, and the
// start-up line of a restarted app is looked for in that app's log stream.

describe('provider_three without PROVIDER_THREE_PUBLIC_KEY outside embedded mode', () => {
  const logs = new LogCapture();
  let telnyx: TelnyxFake;
  let t: TestApp;
  let admin: RegisteredAdmin;
  const keyMissing = (lines: Record<string, unknown>[]) =>
    lines.filter((line) => String(line.msg).startsWith('PROVIDER_THREE_PUBLIC_KEY is not set'));

  beforeAll(async () => {
    telnyx = await TelnyxFake.start();
    const port = await freePort();
    // NODE_ENV=test with DATABASE_URL: not embedded, so the key is required.
    t = await startTestApp({
      logStream: logs,
      env: {
        LOG_LEVEL: 'info',
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        VOICE_RUNTIME: 'off',
        PROVIDER_THREE_API_URL: telnyx.baseUrl,
      },
    });
    await t.app.listen(port, '127.0.0.1');
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
    await telnyx.close();
  });

  it('refuses to add a provider_three number without a publicKey with a 400 naming the variable, before calling Telnyx', async () => {
    const account = telnyx.addAccount();
    const number = '+14155550777';
    telnyx.addNumber(account, number);
    const response = await t.http
      .post('/api/call/add-phone')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({
        userId: admin.userId,
        phoneNumber: number,
        integration: 'provider_three',
        authToken: account.apiKey,
        accSId: '',
      })
      .expect(400);
    expect(response.body).toMatchObject({ status: false, code: 400 });
    expect(response.body.errorMessage).toMatch(/without a publicKey.*PROVIDER_THREE_PUBLIC_KEY/);
    expect(telnyx.requests).toEqual([]);
    expect(telnyx.account(account).applications.size).toBe(0);
  });

  it("adds a number with its account's publicKey and verifies its callbacks with that key", async () => {
    const account = telnyx.addAccount({ ownKeyPair: true });
    const number = '+14155550778';
    telnyx.addNumber(account, number);
    const call = await placedCall(t, admin, {
      integration: 'provider_three',
      number,
      credentials: { accSId: '', authToken: account.apiKey, publicKey: account.keyPair.publicKey },
    });
    const statusOf = async () =>
      (
        await t.app
          .get(Database)
          .db.select({ callStatus: phoneLogs.callStatus })
          .from(phoneLogs)
          .where(eq(phoneLogs.id, call.log.id))
      )[0].callStatus;
    const signingKey = telnyx.addAccount().keyPair.privateKey;
    expect(await telnyx.advanceCall(call.id, 'call.answered', {}, { signingKey })).toBe(401);
    expect(await telnyx.replayLastCallback(call.id, { signature: 'missing' })).toBe(401);
    expect(await statusOf()).toBe('queued');
    expect(await telnyx.replayLastCallback(call.id)).toBe(200);
    expect(await statusOf()).toBe('in-progress');
  });

  it('logs an error naming the variable at start once provider_three numbers without their own key exist', async () => {
    // A restart on the same database. Its lines reach `logs`: nestjs-pino keeps one root logger
    // per process, the first app's.
    const restart = async () => {
      const restarted = await createApp(t.config, { logger: false, logStream: new LogCapture() });
      await restarted.init();
      await restarted.close();
    };
    // The number added with its own key (above) needs no server key.
    await restart();
    expect(keyMissing(logs.lines)).toEqual([]);
    await new CallingFactories(t).phone(admin.organizationId, admin.userId, {
      integration: 'provider_three',
    });
    await restart();
    expect(keyMissing(logs.lines)).toEqual([expect.objectContaining({ level: 50, numbers: 1 })]);
  });
});
