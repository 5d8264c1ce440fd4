import { ProcessDrain } from '../../src/lifecycle/process-drain';
import { createApiKey, registerOrganization } from '../support/factories';
import { LogCapture } from '../support/log-capture';
import { startTestApp, type TestApp } from '../support/test-app';

describe('logging: JSON lines with a request id, never secrets or phone numbers', () => {
  const logs = new LogCapture();
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'info' }, logStream: logs });
  });
  afterAll(async () => {
    await t.close();
  });

  it('logs each request with its id and path, and redacts credentials and personal data', async () => {
    const password = 'canary-password-7781';
    const admin = await registerOrganization(t.http, { password });
    const { key } = await createApiKey(t.http, admin.token);
    await t.http
      .get('/api/auth/me')
      .set('Authorization', `Bearer ${admin.token}`)
      .set('x-request-id', 'trace-me-1')
      .expect(200);
    await t.http.get('/api/auth/me').set('x-api-key', key).expect(200);
    await t.http
      .get('/health/live?phoneNumber=%2B14155550199')
      .set('Cookie', 'session=canary-cookie')
      .expect(200);
    await t.http.post('/api/auth/login').send({ email: admin.email, password }).expect(200);

    const requestLines = logs.lines.filter((line) => line.req !== undefined);
    expect(requestLines.length).toBeGreaterThanOrEqual(6);
    const traced = requestLines.find((line) => (line.req as { id: string }).id === 'trace-me-1');
    expect(traced).toMatchObject({
      req: { method: 'GET', path: '/api/auth/me' },
      res: { statusCode: 200 },
    });
    expect((traced!.req as { headers: Record<string, string> }).headers.authorization).toBe(
      '[redacted]',
    );

    for (const secret of [
      password,
      admin.token,
      key,
      key.slice(20),
      '4155550199',
      'canary-cookie',
    ]) {
      expect(logs.text).not.toContain(secret);
    }
  });

  // Last: the process drains from here on.
  it('logs a 5xx answer without a stack trace (a draining process to each readiness probe)', async () => {
    void t.app.get(ProcessDrain).run();
    await t.http.get('/health/ready').set('x-request-id', 'probe-1').expect(503);
    const answered = logs.lines.find(
      (line) => (line.req as { id?: string } | undefined)?.id === 'probe-1' && line.res,
    );
    expect(answered).toMatchObject({ res: { statusCode: 503 }, err: { type: 'Error' } });
    expect(logs.text).not.toMatch(/"stack"|\\n\s+at /);
  });
});
