import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '../../src/config';
import { createApp } from '../../src/create-app';
import { Database } from '../../src/database';
import { DRIVER_APPS, type DriverApp } from '../support/driver-apps';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp } from '../support/test-app';

// Issue #11 + #18: no search holds a connection longer than the statement timeout. PostgreSQL
// cancels the statement (408); PGlite cannot interrupt one, so costly patterns are refused before
// they run, on both drivers alike.
const CONTACTS = 2_000;
const HOSTILE = [
  '((a+)+)+b',
  '((.*)*)*x',
  '(.*a){20}',
  '(.{0,100}){0,100}x',
  '(.*)(.*)(.*)(.*)(.*)\\5\\4\\3\\2\\1x',
];
// Accepted by the rules and among the costliest such per record.
const COSTLIEST_ACCEPTED = `${'a?'.repeat(20)}${'a'.repeat(20)}`;

/** A batch of CONTACTS unindexed records (as right after an import), seeded in one statement. */
async function seedBatch(app: NestExpressApplication, admin: RegisteredAdmin, size = CONTACTS) {
  const database = app.get(Database);
  const batchId = randomBytes(12).toString('hex');
  // Seeding is not a request: it may take longer than a short statement timeout.
  await database.background(async () => {
    const db = database.db;
    await db.execute(sql`
      INSERT INTO batches (id, organization_id, user_id, batch_name, calling_numbers, total_calls)
      VALUES (${batchId}, ${admin.organizationId}, ${admin.userId}, 'Search', ARRAY['000000000000000000000000'], ${size})`);
    await db.execute(sql`
      INSERT INTO call_records (id, organization_id, batch_id, phone_number, contact, created_at)
      SELECT substr(md5(${batchId} || i), 1, 24), ${admin.organizationId}, ${batchId},
             '+1415' || (5000000 + i)::text,
             jsonb_build_object('name', 'Contact ' || i, 'account_id', 'A-' || i, 'note', repeat('a', 28)),
             now() - (${size} - i) * interval '1 millisecond'
      FROM generate_series(1, ${size}) AS i`);
  });
  return batchId;
}

describe.each(DRIVER_APPS)('hostile search patterns on %s', (_driver, start) => {
  let h: DriverApp;
  let admin: RegisteredAdmin;
  let batchId: string;
  const search = (pattern: string) =>
    h.http
      .get(`/api/call/batch-details/${batchId}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .query({ search: pattern });

  beforeAll(async () => {
    h = await start();
    admin = await registerOrganization(h.http);
    batchId = await seedBatch(h.app, admin);
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it.each(HOSTILE)('refuses %s with 400 before it runs', async (pattern) => {
    const started = performance.now();
    const response = await search(pattern);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ field: 'search', message: expect.stringMatching(/^search: /) }),
    ]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('answers six of them at once within the statement timeout', async () => {
    const started = performance.now();
    const responses = await Promise.all(HOSTILE.concat(HOSTILE[0]).map(search));
    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(400));
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('runs the costliest accepted pattern on 2,000 contacts within the statement timeout', async () => {
    const started = performance.now();
    const response = await search(COSTLIEST_ACCEPTED);
    expect(response.status).toBe(200);
    expect(response.body.data.total).toBe(CONTACTS);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('the PostgreSQL statement timeout (DB_STATEMENT_TIMEOUT_MS)', () => {
  let h: DriverApp;
  let admin: RegisteredAdmin;
  let databaseUrl: string;

  beforeAll(async () => {
    const t = await startTestApp({ env: { DB_STATEMENT_TIMEOUT_MS: '300' } });
    h = { app: t.app, http: t.http, close: () => t.close() };
    databaseUrl = t.database.url;
    admin = await registerOrganization(h.http);
  }, 60_000);
  afterAll(async () => {
    await h.close();
  });

  it('answers a search past it 408 in the envelope, and frees the connections', async () => {
    // Big enough that an accepted pattern takes longer than 300 ms.
    const batchId = await seedBatch(h.app, admin, 100_000);
    const slow = () =>
      h.http
        .get(`/api/call/batch-details/${batchId}`)
        .set('Authorization', `Bearer ${admin.token}`)
        .query({ search: COSTLIEST_ACCEPTED });
    const started = performance.now();
    // More at once than the pool has connections (10): each is cancelled, none waits for long.
    const responses = await Promise.all(Array.from({ length: 12 }, slow));
    for (const response of responses) {
      expect(response.status).toBe(408);
      expect(response.body).toEqual({
        message: 'Request timeout',
        status: false,
        code: 408,
        errorMessage: expect.stringMatching(/took too long; narrow it/),
      });
    }
    expect(performance.now() - started).toBeLessThan(5_000);
    await h.http.get('/api/auth/me').set('Authorization', `Bearer ${admin.token}`).expect(200);
  }, 30_000);

  it('lets background work run longer (Database.background)', async () => {
    const database = h.app.get(Database);
    await expect(database.db.execute(sql`SELECT pg_sleep(0.5)`)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '57014' }),
    });
    await expect(
      database.background(() => database.db.execute(sql`SELECT pg_sleep(0.5)`)),
    ).resolves.toBeDefined();
  });

  it('does not bound migrations: a process waits for another one migrating', async () => {
    // Another process holds the migration lock for longer than the statement timeout.
    const holder = new Client({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock(727274001)');
    const release = setTimeout(
      () => void holder.query('SELECT pg_advisory_unlock(727274001)'),
      800,
    );
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'x'.repeat(40),
        ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
        DB_STATEMENT_TIMEOUT_MS: '300',
      });
      const second = await createApp(config, { logger: false });
      await second.init();
      await second.close();
    } finally {
      clearTimeout(release);
      await holder.end();
    }
  });
});
