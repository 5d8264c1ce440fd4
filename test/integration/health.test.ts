import { startTestApp, type TestApp } from '../support/test-app';

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ redis: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('is live, and ready while PostgreSQL and Redis answer', async () => {
    const live = await t.http.get('/health/live').expect(200);
    expect(live.body).toMatchObject({ message: 'Alive', status: true, code: 200 });
    const ready = await t.http.get('/health/ready').expect(200);
    expect(ready.body).toEqual({
      message: 'Ready',
      status: true,
      code: 200,
      data: { database: 'up', redis: 'up' },
    });
  });

  it('turns 503 when the database is gone, and stays live', async () => {
    await t.database.drop();
    const ready = await t.http.get('/health/ready').expect(503);
    expect(ready.body).toEqual({
      message: 'Service unavailable',
      status: false,
      code: 503,
      errorMessage: 'Not ready: database unreachable',
      requestId: expect.any(String),
    });
    await t.http.get('/health/live').expect(200);
  });
});
