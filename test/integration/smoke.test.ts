import { startTestApp, type TestApp } from '../support/test-app';
import { registerOrganization } from '../support/factories';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers and reads me', async () => {
    const admin = await registerOrganization(t.http);
    const me = await t.http
      .get('/api/auth/me')
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(me.body.data.email).toBe(admin.email);
  });
});
