import { CallingFactories } from '../support/calling-factories';
import { registerOrganization } from '../support/factories';
import { LogCapture } from '../support/log-capture';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

// A separate file: one Nest app at a time per file (passport strategies are process-global).
describe('do-not-call list without SMTP_URL', () => {
  const logs = new LogCapture();
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ logStream: logs, env: { LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('still adds the number, and logs that the notification was not sent', async () => {
    expect(t.config.mail.smtpUrl).toBeUndefined();
    const admin = await registerOrganization(t.http);
    const calls = new CallingFactories(t);
    const batch = await calls.batch(admin.organizationId, admin.userId);
    const [record] = await calls.callRecords(batch, [{ phoneNumber: '+16505552001' }]);
    const log = await calls.phoneLog(record);

    const response = await t.http
      .post('/api/dnc/add')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ phoneNumber: '+16505552001', batchId: batch.id, requestUUID: log.requestUuid })
      .expect(200);
    expect(response.body).toEqual({
      message: 'Number added to the do-not-call list',
      status: true,
      code: 200,
      errorMessage: '',
    });

    const line = await waitFor(
      () => logs.lines.find((entry) => entry.msg === 'notification not sent (SMTP_URL unset)'),
      { what: 'the not-sent log line' },
    );
    expect(line).toMatchObject({ subject: 'Number added to the do-not-call list' });
    expect(logs.text).not.toContain('6505552001');
    expect(logs.text).not.toContain(admin.email);
  });
});
