import { createApp } from '../../src/create-app';
import { TelnyxFake } from '../fakes';
import { CallingFactories } from '../support/calling-factories';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { LogCapture } from '../support/log-capture';
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
    // NODE_ENV=test with DATABASE_URL: not embedded, so the key is required.
    t = await startTestApp({
      logStream: logs,
      env: { LOG_LEVEL: 'info', PROVIDER_THREE_API_URL: telnyx.baseUrl },
    });
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
    await telnyx.close();
  });

  it('refuses to add a provider_three number with a 400 naming the variable, before calling Telnyx', async () => {
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
    expect(response.body.errorMessage).toMatch(/PROVIDER_THREE_PUBLIC_KEY/);
    expect(telnyx.requests).toEqual([]);
    expect(telnyx.account(account).applications.size).toBe(0);
  });

  it('logs an error naming the variable at start once provider_three numbers exist', async () => {
    expect(keyMissing(logs.lines)).toEqual([]);
    await new CallingFactories(t).phone(admin.organizationId, admin.userId, {
      integration: 'provider_three',
    });
    // A restart on the same database. Its lines reach `logs`: nestjs-pino keeps one root logger
    // per process, the first app's.
    const restarted = await createApp(t.config, { logger: false, logStream: new LogCapture() });
    await restarted.init();
    await restarted.close();
    expect(keyMissing(logs.lines)).toEqual([expect.objectContaining({ level: 50, numbers: 1 })]);
  });
});
