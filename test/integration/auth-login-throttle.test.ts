import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/test-app';

const OWNER_ADDRESS = '203.0.113.10';
const PASSWORD = 'correct horse battery';
const PER_EMAIL_AND_ADDRESS = 5;
const PER_EMAIL = 20;

// Every attempt let through costs an argon2id verify (~0.2 s of a core).
jest.setTimeout(60_000);

// One app at a time (passport strategies are process-global): the memory run ends before Redis.
describe.each([
  ['in memory', false],
  ['shared through Redis', true],
])('login throttling %s: strangers cannot lock the owner out', (_, redis) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      redis,
      env: {
        // X-Forwarded-For stands for the client address.
        TRUST_PROXY: 'true',
        AUTH_LOGIN_MAX_PER_EMAIL_AND_ADDRESS: String(PER_EMAIL_AND_ADDRESS),
        AUTH_LOGIN_MAX_PER_EMAIL: String(PER_EMAIL),
        AUTH_LOGIN_MAX_PER_ADDRESS: '100',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  /** An owner who signed up from OWNER_ADDRESS. */
  async function owner(): Promise<string> {
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    await t.http
      .post('/api/auth/register')
      .set('X-Forwarded-For', OWNER_ADDRESS)
      .send({ organizationName: 'Owned', name: 'Owner', email, password: PASSWORD })
      .expect(201);
    return email;
  }

  function login(email: string, password: string, address: string): Promise<number> {
    return t.http
      .post('/api/auth/login')
      .set('X-Forwarded-For', address)
      .send({ email, password })
      .then((response) => response.status);
  }

  /** Runs the attempts `width` at a time and counts the answers by status. */
  async function statuses(attempts: (() => Promise<number>)[], width = 50) {
    const counts: Record<number, number> = {};
    for (let start = 0; start < attempts.length; start += width) {
      const batch = await Promise.all(attempts.slice(start, start + width).map((run) => run()));
      for (const status of batch) counts[status] = (counts[status] ?? 0) + 1;
    }
    return counts;
  }

  it("a stranger's 1,000 wrong guesses from one address leave the owner able to log in", async () => {
    const email = await owner();
    const counts = await statuses(
      Array.from({ length: 1000 }, () => () => login(email, 'wrong password', '198.51.100.1')),
    );
    expect(counts).toEqual({ 401: PER_EMAIL_AND_ADDRESS, 429: 1000 - PER_EMAIL_AND_ADDRESS });
    expect(await login(email, PASSWORD, OWNER_ADDRESS)).toBe(200);
  });

  it('1,000 wrong guesses spread over 200 addresses leave the owner able to log in from their own address', async () => {
    const email = await owner();
    const counts = await statuses(
      Array.from({ length: 1000 }, (_, i) => () => {
        const address = `10.7.${Math.floor(i / 5)}.1`;
        return login(email, 'wrong password', address);
      }),
    );
    // Counted atomically in parallel: exactly the account ceiling got to try a password.
    expect(counts).toEqual({ 401: PER_EMAIL, 429: 1000 - PER_EMAIL });
    expect(await login(email, PASSWORD, OWNER_ADDRESS)).toBe(200);
    // The ceiling holds for addresses that never signed in to the account, the password right.
    expect(await login(email, PASSWORD, '192.0.2.99')).toBe(429);
  });

  it('counts 20 parallel wrong guesses from one address as 20: the limit holds exactly', async () => {
    const email = await owner();
    const counts = await statuses(
      Array.from({ length: 20 }, () => () => login(email, 'wrong password', '198.51.100.20')),
    );
    expect(counts).toEqual({ 401: PER_EMAIL_AND_ADDRESS, 429: 20 - PER_EMAIL_AND_ADDRESS });
  });

  it("does not reset a stranger's count when the owner logs in", async () => {
    const email = await owner();
    const stranger = '198.51.100.30';
    for (let attempt = 1; attempt < PER_EMAIL_AND_ADDRESS; attempt += 1) {
      expect(await login(email, 'wrong password', stranger)).toBe(401);
    }
    expect(await login(email, PASSWORD, OWNER_ADDRESS)).toBe(200);
    expect(await login(email, 'wrong password', stranger)).toBe(401);
    const limited = await t.http
      .post('/api/auth/login')
      .set('X-Forwarded-For', stranger)
      .send({ email, password: PASSWORD })
      .expect(429);
    expect(limited.body).toEqual({
      message: 'Too many requests',
      status: false,
      code: 429,
      errorMessage: 'Too many login attempts; try again later',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
