import { Queue } from 'bullmq';
import { count, eq, sql } from 'drizzle-orm';
import { newObjectId } from '../../src/common/object-id';
import { Database } from '../../src/database';
import { batches, type BatchRow } from '../../src/modules/batches/batches.schema';
import { IndexCallRecordSearchHandler } from '../../src/modules/call-records/call-record-search.handler';
import {
  CallRecordsRepository,
  ContactPayload,
} from '../../src/modules/call-records/call-records.repository';
import { callRecords, callRecordSearch } from '../../src/modules/call-records/call-records.schema';
import { JobName } from '../../src/queue';
import { JOBS_QUEUE_NAME } from '../../src/queue/bullmq-job-queue';
import { CallingFactories } from '../support/calling-factories';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import {
  REDIS_TEST_URL,
  startTestApp,
  type TestApp,
  type TestAppOptions,
} from '../support/test-app';
import { waitFor } from '../support/wait-for';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
let sequence = 0;
/** A valid US number, unique in this file. */
const nextNumber = () => `+1415${String(3_000_000 + (sequence += 1)).padStart(7, '0')}`;

interface Details {
  total: number;
  data: { name: string }[];
}

/** Boots an app for the enclosing describe; what the search and its index need from it. */
function searchApp(options: TestAppOptions) {
  let t: TestApp;
  let organization: RegisteredAdmin;
  beforeAll(async () => {
    t = await startTestApp(options);
    organization = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
  });
  const app = () => t;
  const admin = () => organization;
  const db = () => app().app.get(Database).db;
  return {
    app,
    admin,
    newBatch: () => new CallingFactories(app()).batch(admin().organizationId, admin().userId),
    db,
    importContacts: (batchId: string, names: string[]) =>
      app()
        .http.post(`/api/call/batches/${batchId}/contacts`)
        .set(bearer(admin().token))
        .send({ contacts: names.map((name) => ({ phoneNumber: nextNumber(), name })) })
        .expect(201),
    search: async (batchId: string, search: string, page = 1, limit = 10): Promise<Details> =>
      (
        await app()
          .http.get(`/api/call/batch-details/${batchId}`)
          .query({ search, page, limit })
          .set(bearer(admin().token))
          .expect(200)
      ).body.data as Details,
    badSearch: (batchId: string) =>
      app()
        .http.get(`/api/call/batch-details/${batchId}`)
        .query({ search: '(unclosed' })
        .set(bearer(admin().token))
        .expect(400),
    indexedRows: async (batchId: string) =>
      (
        await db()
          .select({ rows: count() })
          .from(callRecordSearch)
          .where(eq(callRecordSearch.batchId, batchId))
      )[0].rows,
    watermark: async (batchId: string) =>
      (
        await db()
          .select({ id: batches.searchIndexedId })
          .from(batches)
          .where(eq(batches.id, batchId))
      )[0].id,
  };
}

const names = (details: Details) => details.data.map((record) => record.name);

describe('call record search index', () => {
  describe('on BullMQ, each job run by the test', () => {
    // Enqueue only: no worker runs in this process, so nothing is indexed until the test says.
    const h = searchApp({ redis: true, env: { PROCESS_ROLE: 'api' } });
    const newBatch = h.newBatch;
    const runIndexJob = (batch: BatchRow) =>
      h
        .app()
        .app.get(IndexCallRecordSearchHandler)
        .handle({ organizationId: h.admin().organizationId, batchId: batch.id });
    const queuedIndexJobs = async (batch: BatchRow) => {
      const queue = new Queue(JOBS_QUEUE_NAME, {
        connection: { url: REDIS_TEST_URL },
        prefix: h.app().config.redis.prefix,
      });
      try {
        const jobs = await queue.getJobs(['waiting']);
        return jobs.filter(
          (job) =>
            job.name === (JobName.IndexCallRecordSearch as string) && job.data.batchId === batch.id,
        ).length;
      } finally {
        await queue.close();
      }
    };

    it('finds imported records the same before and after the search index job has run', async () => {
      const batch = await newBatch();
      await h.importContacts(batch.id, ['Ann Smith', 'Bob Smithers', 'Cid Jones', 'smith Dee']);
      expect(await queuedIndexJobs(batch)).toBe(1);

      const expectSameResults = async () => {
        // Case-insensitive, and ^ / $ anchor at each contact field.
        expect(names(await h.search(batch.id, 'smith$'))).toEqual(['Ann Smith']);
        expect(names(await h.search(batch.id, '^SMITH'))).toEqual(['smith Dee']);
        const broad = await h.search(batch.id, 'smith', 2, 2);
        expect(broad.total).toBe(3);
        expect(names(broad)).toEqual(['smith Dee']);
        expect((await h.search(batch.id, 'nobody')).total).toBe(0);
        await h.badSearch(batch.id);
      };
      // Nothing indexed yet: every match is found directly.
      expect(await h.indexedRows(batch.id)).toBe(0);
      await expectSameResults();

      await runIndexJob(batch);
      expect(await h.indexedRows(batch.id)).toBe(4);
      expect(await h.watermark(batch.id)).not.toBe('');
      await expectSameResults();
    });

    it('finds indexed and not yet indexed records together after a second import', async () => {
      const batch = await newBatch();
      await h.importContacts(batch.id, ['alpha one', 'alpha two', 'beta']);
      await runIndexJob(batch);
      const indexedTo = await h.watermark(batch.id);
      await h.importContacts(batch.id, ['alpha three']);
      // The new record comes after the watermark, which stays: it is matched directly.
      expect(await h.watermark(batch.id)).toBe(indexedTo);
      expect(await h.indexedRows(batch.id)).toBe(3);

      const alpha = await h.search(batch.id, '^alpha');
      expect(alpha.total).toBe(3);
      expect(names(alpha)).toEqual(['alpha one', 'alpha two', 'alpha three']);

      await runIndexJob(batch);
      expect(await h.indexedRows(batch.id)).toBe(4);
      expect(names(await h.search(batch.id, '^alpha'))).toEqual([
        'alpha one',
        'alpha two',
        'alpha three',
      ]);
    });

    it('still finds a record whose import committed after the index passed its creation time', async () => {
      const batch = await newBatch();
      const database = h.app().app.get(Database);
      let startLate!: () => void;
      const lateMayInsert = new Promise<void>((resolve) => (startLate = resolve));
      // Begins now (its records' created_at is this moment) but inserts only after the index ran.
      const late = database.transaction(async () => {
        await database.db.execute(sql`SELECT now()`);
        await lateMayInsert;
        const payload = new ContactPayload();
        payload.add({
          id: newObjectId(),
          phoneNumber: nextNumber(),
          contact: { name: 'late gamma' },
        });
        await h
          .app()
          .app.get(CallRecordsRepository)
          .appendContacts(h.admin().organizationId, batch.id, payload);
      });
      await h.importContacts(batch.id, ['early gamma']);
      await runIndexJob(batch);
      expect(await h.watermark(batch.id)).not.toBe('');
      startLate();
      await late;
      // Its record is older than the watermark, which it moved back before it.
      expect(await h.watermark(batch.id)).toBe('');

      expect(names(await h.search(batch.id, 'gamma'))).toEqual(['late gamma', 'early gamma']);
      await runIndexJob(batch);
      expect(await h.indexedRows(batch.id)).toBe(2);
      expect(names(await h.search(batch.id, 'gamma'))).toEqual(['late gamma', 'early gamma']);
    });

    it('leaves no stale search row behind a deleted record', async () => {
      const batch = await newBatch();
      await h.importContacts(batch.id, ['gone delta', 'kept delta']);
      await runIndexJob(batch);
      expect(await h.indexedRows(batch.id)).toBe(2);

      await h
        .db()
        .delete(callRecords)
        .where(
          eq(
            callRecords.id,
            (
              await h
                .db()
                .select({ id: callRecords.id })
                .from(callRecords)
                .where(sql`${callRecords.contact} ->> 'name' = 'gone delta'`)
            )[0].id,
          ),
        );

      expect(await h.indexedRows(batch.id)).toBe(1);
      const found = await h.search(batch.id, 'delta');
      expect(found.total).toBe(1);
      expect(names(found)).toEqual(['kept delta']);
    });
  });

  describe('on the in-process queue', () => {
    const h = searchApp({});

    it('indexes an imported batch on its own, and search answers the same throughout', async () => {
      const batch = await h.newBatch();
      await h.importContacts(batch.id, ['Eve Epsilon', 'Fay Epsilon', 'Gus Zeta']);
      // Whether or not the job has run yet, the answer is the same.
      expect(names(await h.search(batch.id, 'epsilon$'))).toEqual(['Eve Epsilon', 'Fay Epsilon']);
      await waitFor(async () => (await h.indexedRows(batch.id)) === 3, {
        what: 'the search index job',
      });
      expect(names(await h.search(batch.id, 'epsilon$'))).toEqual(['Eve Epsilon', 'Fay Epsilon']);
    });
  });
});
