import { Redis } from 'ioredis';
import { startTestApp, type TestApp } from '../support/test-app';

describe('auth limits: closed sign-up, per-address login limit shared through Redis', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      redis: true,
      env: {
        AUTH_ALLOW_SIGNUP: 'false',
        AUTH_LOGIN_MAX_PER_ADDRESS: '3',
        AUTH_LOGIN_MAX_PER_EMAIL: '100',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses sign-up with 403 when AUTH_ALLOW_SIGNUP is false', async () => {
    const response = await t.http
      .post('/api/auth/register')
      .send({
        organizationName: 'Closed',
        name: 'Ada',
        email: 'ada@closed.example',
        password: 'password-123',
      })
      .expect(403);
    expect(response.body).toEqual({
      message: 'Forbidden',
      status: false,
      code: 403,
      errorMessage: 'Sign-up is disabled',
    });
  });

  it('answers 429 once one address made too many attempts, whatever the e-mail', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await t.http
        .post('/api/auth/login')
        .send({ email: `user${attempt}@example.com`, password: 'wrong password' })
        .expect(401);
    }
    const limited = await t.http
      .post('/api/auth/login')
      .send({ email: 'fresh@example.com', password: 'whatever' })
      .expect(429);
    expect(limited.body).toMatchObject({
      status: false,
      code: 429,
      errorMessage: 'Too many login attempts; try again later',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const keys = await scanKeys(t);
    expect(keys.some((key) => key.includes('login-address'))).toBe(true);
  });
});

async function scanKeys(t: TestApp): Promise<string[]> {
  const redis = new Redis(t.config.redis.url!);
  try {
    return await redis.keys(`${t.config.redis.prefix}:*`);
  } finally {
    redis.disconnect();
  }
}
