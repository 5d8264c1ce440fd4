import { eq } from 'drizzle-orm';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import { dncEntries } from '../../src/modules/dnc/dnc.schema';
import { CallingFactories } from '../support/calling-factories';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

// Idempotency-Key under failure: the stored answer commits with the resource it describes, a
// claim whose request died frees its key after a lease of seconds, and twins never create two.

jest.setTimeout(60_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
let sequence = 0;
const next = () => (sequence += 1);
const nextName = () => `Idempotent ${next()}`;
const nextNumber = () => `+1650777${String(1000 + next())}`;
const TWINS = 6;

/** Stands for a connection lost at the moment the answer is stored (it fails that statement). */
const FAIL_STORING_ANSWER = `
  CREATE FUNCTION fail_storing_answer() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION 'injected: connection lost while storing the answer'; END $$;
  CREATE TRIGGER fail_storing_answer BEFORE UPDATE ON idempotency_keys FOR EACH ROW
    WHEN (NEW.response_status IS NOT NULL AND OLD.response_status IS NULL)
    EXECUTE FUNCTION fail_storing_answer();`;
const STOP_FAILING = `
  DROP TRIGGER fail_storing_answer ON idempotency_keys;
  DROP FUNCTION fail_storing_answer();`;

describe('Idempotency-Key', () => {
  let t: TestApp;
  let make: CallingFactories;
  let admin: RegisteredAdmin;
  let member: { token: string; userId: string };
  let phoneId: string;
  let sql: Client;

  beforeAll(async () => {
    t = await startTestApp();
    make = new CallingFactories(t);
    admin = await registerOrganization(t.http);
    member = await createMember(t.http, admin.token, ['calls', 'dnc']);
    phoneId = (await make.phone(admin.organizationId, admin.userId)).id;
    sql = new Client({ connectionString: t.database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql.end();
    await t.close();
  });

  const db = () => t.app.get(Database).db;
  const createBatch = (key: string, batchName: string, token = admin.token) =>
    t.http
      .post('/api/call/createBatch')
      .set(bearer(token))
      .set('Idempotency-Key', key)
      .send({ batchName, callingNumbers: [phoneId] });
  const batchIds = async (batchName: string) =>
    (
      await db().select({ id: batches.id }).from(batches).where(eq(batches.batchName, batchName))
    ).map((row) => row.id);

  describe('createBatch', () => {
    it('leaves no batch when storing the answer fails; the retry creates exactly one and replays its id', async () => {
      const batchName = nextName();
      await sql.query(FAIL_STORING_ANSWER);
      try {
        await createBatch('lost-answer-1', batchName).expect(500);
      } finally {
        await sql.query(STOP_FAILING);
      }
      expect(await batchIds(batchName)).toEqual([]);
      const retry = await createBatch('lost-answer-1', batchName).expect(201);
      const again = await createBatch('lost-answer-1', batchName).expect(201);
      expect(again.body).toEqual(retry.body);
      expect(await batchIds(batchName)).toEqual([retry.body.data]);
    });

    it('frees the key of a request that stopped within a lease of seconds; the stalled request then creates no second batch', async () => {
      const batchName = nextName();
      const key = 'stalled-1';
      // The member's request stalls inside its transaction: inserting its batch waits on this lock.
      const lock = new Client({ connectionString: t.database.url });
      await lock.connect();
      try {
        await lock.query('BEGIN');
        await lock.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [member.userId]);
        const stalled = createBatch(key, batchName, member.token).then((response) => response);
        await waitFor(
          async () =>
            (
              await sql.query(
                "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
              )
            ).rowCount! > 0,
          { timeoutMs: 20_000, what: 'the first request to wait inside its transaction' },
        );
        const { rows } = await sql.query<{ left: number }>(
          'SELECT extract(epoch FROM expires_at - now())::float AS left FROM idempotency_keys WHERE key = $1',
          [key],
        );
        expect(rows[0].left).toBeGreaterThan(0);
        expect(rows[0].left).toBeLessThanOrEqual(60);
        await createBatch(key, batchName).expect(409);

        // The lease runs out, as when the first request's process died and stopped renewing it.
        await sql.query(
          "UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1",
          [key],
        );
        const retry = await createBatch(key, batchName).expect(201);
        await lock.query('ROLLBACK');
        const late: Response = await stalled;
        expect(late.status).toBe(201);
        expect(late.body).toEqual(retry.body);
        expect(await batchIds(batchName)).toEqual([retry.body.data]);
      } finally {
        await lock.end();
      }
    });

    it(`creates exactly one batch for ${TWINS} concurrent requests with one key; the others replay or answer 409`, async () => {
      const batchName = nextName();
      const answers = await Promise.all(
        Array.from({ length: TWINS }, () => createBatch('twins-1', batchName)),
      );
      const ids = await batchIds(batchName);
      expect(ids).toHaveLength(1);
      for (const answer of answers) {
        expect([201, 409]).toContain(answer.status);
        if (answer.status === 201) expect(answer.body.data).toBe(ids[0]);
      }
    });
  });

  describe('DNC add', () => {
    /** A call of one of the member's batches, ready to be listed. */
    async function calledContact() {
      const batch = await make.batch(admin.organizationId, member.userId);
      const [record] = await make.callRecords(batch, [{ phoneNumber: nextNumber() }]);
      const log = await make.phoneLog(record);
      return { phoneNumber: record.phoneNumber, batchId: batch.id, requestUUID: log.requestUuid };
    }
    const add = (key: string, body: object) =>
      t.http.post('/api/dnc/add').set(bearer(member.token)).set('Idempotency-Key', key).send(body);
    const entries = (phoneNumber: string) =>
      db().select().from(dncEntries).where(eq(dncEntries.phoneNumber, phoneNumber));

    it('replays the answer to a retry instead of finding the number listed; 422 for another body', async () => {
      const body = await calledContact();
      const first = await add('dnc-retry-1', body).expect(200);
      const retry = await add('dnc-retry-1', body).expect(200);
      expect(retry.body).toEqual(first.body);
      await add('dnc-retry-1', { ...body, type: 'other' }).expect(422);
      await add('dnc-retry-2', body).expect(400);
      expect(await entries(body.phoneNumber)).toHaveLength(1);
    });

    it('leaves no entry when storing the answer fails; the retry adds it once', async () => {
      const body = await calledContact();
      await sql.query(FAIL_STORING_ANSWER);
      try {
        await add('dnc-lost-answer-1', body).expect(500);
      } finally {
        await sql.query(STOP_FAILING);
      }
      expect(await entries(body.phoneNumber)).toHaveLength(0);
      await add('dnc-lost-answer-1', body).expect(200);
      await add('dnc-lost-answer-1', body).expect(200);
      expect(await entries(body.phoneNumber)).toHaveLength(1);
    });

    it(`lists the number once for ${TWINS} concurrent adds with one key; the others replay or answer 409`, async () => {
      const body = await calledContact();
      const answers = await Promise.all(
        Array.from({ length: TWINS }, () => add('dnc-twins-1', body)),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses).toContain(200);
      for (const status of statuses) expect([200, 409]).toContain(status);
      expect(await entries(body.phoneNumber)).toHaveLength(1);
    });
  });
});
