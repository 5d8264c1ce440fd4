import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { HASH_CONCURRENCY, PasswordHasher } from '../../src/modules/users/password-hasher';
import { TestSmtpServer } from '../support/smtp-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const PER_ADDRESS = 3;

// Every sign-up costs an argon2id hash (~0.2 s of a core).
jest.setTimeout(60_000);

describe('sign-up: throttled per address, hashing bounded, no account enumeration', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await startTestApp({
      env: {
        TRUST_PROXY: 'true',
        AUTH_REGISTER_MAX_PER_ADDRESS: String(PER_ADDRESS),
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Switchboard <no-reply@switchboard.test>',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  function register(address: string, overrides: Record<string, string> = {}) {
    return t.http
      .post('/api/auth/register')
      .set('X-Forwarded-For', address)
      .send({
        organizationName: 'Acme',
        name: 'Ada',
        email: `ada-${randomBytes(4).toString('hex')}@example.com`,
        password: 'correct horse battery',
        ...overrides,
      });
  }

  async function count(table: 'organizations' | 'users'): Promise<number> {
    const client = new Client({ connectionString: t.database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      return rows[0].n;
    } finally {
      await client.end();
    }
  }

  it('accepts AUTH_REGISTER_MAX_PER_ADDRESS sign-ups per address, counted in parallel, then 429', async () => {
    const responses = await Promise.all(
      Array.from({ length: PER_ADDRESS + 4 }, () => register('198.51.100.1')),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([
      ...Array<number>(PER_ADDRESS).fill(201),
      ...Array<number>(4).fill(429),
    ]);
    const limited = responses.find((response) => response.status === 429)!;
    expect(limited.body).toEqual({
      message: 'Too many requests',
      status: false,
      code: 429,
      errorMessage: 'Too many sign-ups; try again later',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    await register('198.51.100.2').expect(201);
  });

  it(`runs at most ${HASH_CONCURRENCY} password hashes at once under a burst`, async () => {
    const hasher = t.app.get(PasswordHasher);
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => register(`10.9.0.${i + 1}`)),
    );
    expect(responses.map((response) => response.status)).toEqual(Array<number>(12).fill(201));
    expect(hasher.slots.peak).toBeGreaterThan(0);
    expect(hasher.slots.peak).toBeLessThanOrEqual(HASH_CONCURRENCY);
  });

  it('answers a taken e-mail exactly like a free one, creates nothing and e-mails the owner', async () => {
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    const hash = jest.spyOn(t.app.get(PasswordHasher), 'hash');
    const fresh = await register('203.0.113.1', { email });
    const organizations = await count('organizations');
    const users = await count('users');
    const taken = await register('203.0.113.2', {
      email: ` ${email.toUpperCase()} `,
      organizationName: 'Evil Corp',
      name: 'Eve',
    });
    // The same work for both: one argon2id hash each.
    expect(hash).toHaveBeenCalledTimes(2);
    hash.mockRestore();

    expect(taken.status).toBe(fresh.status);
    expect(taken.status).toBe(201);
    expect(shape(taken.body)).toEqual(shape(fresh.body));
    expect(taken.body).toMatchObject({
      message: 'Organization registered',
      status: true,
      code: 201,
      data: { user: { email, name: 'Eve', role: 'admin' } },
    });
    expect(taken.body.data.user.permissions).toEqual(fresh.body.data.user.permissions);
    expect(taken.body.data.user._id).not.toBe(fresh.body.data.user._id);
    // ObjectIds end in a counter: the decoy's ids are made in the order of a real sign-up's.
    expect(idGap(taken.body.data.user)).toBe(idGap(fresh.body.data.user));

    // The decoy session grants nothing; the owner's is untouched.
    for (const path of ['/api/auth/me', '/api/users', '/api/api-keys']) {
      await t.http
        .get(path)
        .set('Authorization', `Bearer ${taken.body.data.accessToken}`)
        .expect(401);
    }
    await t.http
      .get('/api/auth/me')
      .set('Authorization', `Bearer ${fresh.body.data.accessToken}`)
      .expect(200);
    expect(await count('organizations')).toBe(organizations);
    expect(await count('users')).toBe(users);

    const notice = await waitFor(
      () => smtp.messages.find((message) => message.envelope.to.includes(email)),
      { what: 'the already-registered notice' },
    );
    expect(notice.subject).toBe('Sign-up attempt with your e-mail address');
    expect(notice.text).toContain('already has an account');
    expect(notice.text).not.toContain('Evil Corp');
    expect(notice.text).not.toContain('Eve');
    // Real sign-ups send nothing and a repeated attempt waits an hour for the next notice: once
    // a later notice has arrived, the owner still has exactly one and nobody else has any.
    await register('203.0.113.3', { email }).expect(201);
    const other = await register('203.0.113.4').expect(201);
    const otherEmail = other.body.data.user.email as string;
    await register('203.0.113.5', { email: otherEmail }).expect(201);
    await waitFor(() => smtp.messages.some((message) => message.envelope.to.includes(otherEmail)), {
      what: 'the second notice',
    });
    expect(smtp.messages.map((message) => message.envelope.to)).toEqual([[email], [otherEmail]]);
  });

  it('keeps 409 for an admin adding a user whose e-mail is taken', async () => {
    const owner = await register('203.0.113.6').expect(201);
    const response = await t.http
      .post('/api/users')
      .set('Authorization', `Bearer ${owner.body.data.accessToken}`)
      .send({ name: 'Dup', email: owner.body.data.user.email, password: 'password-123' })
      .expect(409);
    expect(response.body.errorMessage).toBe('A user with this e-mail already exists');
  });
});

function idGap(user: { _id: string; organizationId: string }): number {
  return parseInt(user._id.slice(18), 16) - parseInt(user.organizationId.slice(18), 16);
}

/** Every key with the type of its value, recursively: what a client could tell apart. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]));
  }
  return typeof value;
}
