import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import { CallingFactories } from '../support/calling-factories';
import {
  createApiKey,
  createMember,
  registerOrganization,
  type RegisteredAdmin,
} from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

describe('batches', () => {
  let t: TestApp;
  let make: CallingFactories;
  let admin: RegisteredAdmin;
  let phoneId: string;
  beforeAll(async () => {
    t = await startTestApp();
    make = new CallingFactories(t);
    admin = await registerOrganization(t.http);
    phoneId = (await make.phone(admin.organizationId, admin.userId)).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const createBatch = (body: object, token = admin.token) =>
    t.http.post('/api/call/createBatch').set(bearer(token)).send(body);

  describe('POST /api/call/createBatch', () => {
    it('creates an active batch and answers its id as data', async () => {
      const response = await createBatch({
        batchName: 'Renewals',
        callingNumbers: [phoneId],
        retry: 2,
        delay: 60,
        timezone: 'America/New_York',
        callingHour: { start: '09:00', end: '18:00' },
        allowedDays: [5, 1, 2],
        retryOn: ['busy', 'mailbox_full'],
      }).expect(201);
      expect(response.body).toEqual({
        message: 'Batch created',
        status: true,
        code: 201,
        errorMessage: '',
        data: expect.stringMatching(/^[0-9a-f]{24}$/),
      });
      const [row] = await t.app
        .get(Database)
        .db.select()
        .from(batches)
        .where(eq(batches.id, response.body.data));
      expect(row).toMatchObject({
        userId: admin.userId,
        queueStatus: 'active',
        retry: 2,
        delay: 60,
        timezone: 'America/New_York',
        callingHourStart: '09:00',
        callingHourEnd: '18:00',
        allowedDays: [1, 2, 5],
        enforceCalleeLocalHours: true,
        retryOn: ['busy', 'mailbox_full'],
      });
    });

    it.each([
      ['missing batchName', { callingNumbers: ['65f1c0ffee0123456789abcd'] }, 'batchName'],
      ['empty callingNumbers', { batchName: 'x', callingNumbers: [] }, 'callingNumbers'],
      [
        'a malformed calling number id',
        { batchName: 'x', callingNumbers: ['nope'] },
        'callingNumbers',
      ],
      [
        'an allowed day of 7',
        { batchName: 'x', callingNumbers: ['65f1c0ffee0123456789abcd'], allowedDays: [7] },
        'allowedDays',
      ],
      [
        'an ending retryOn does not know',
        {
          batchName: 'x',
          callingNumbers: ['65f1c0ffee0123456789abcd'],
          retryOn: ['busy', 'sometimes'],
        },
        'retryOn',
      ],
      [
        'a bad calling hour',
        {
          batchName: 'x',
          callingNumbers: ['65f1c0ffee0123456789abcd'],
          callingHour: { start: '9am', end: '18:00' },
        },
        'callingHour.start',
      ],
      [
        'an unknown time zone',
        { batchName: 'x', callingNumbers: ['65f1c0ffee0123456789abcd'], timezone: 'Mars/Olympus' },
        'timezone',
      ],
    ])('answers 400 for %s', async (_, body, field) => {
      const response = await createBatch(body).expect(400);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it('answers 400 for calling numbers outside the organization or none active', async () => {
      const other = await registerOrganization(t.http);
      const foreign = await make.phone(other.organizationId, other.userId);
      const outside = await createBatch({ batchName: 'x', callingNumbers: [foreign.id] }).expect(
        400,
      );
      expect(outside.body.errorMessage).toContain(foreign.id);
      const inactive = await make.phone(admin.organizationId, admin.userId, { status: 'inactive' });
      const none = await createBatch({ batchName: 'x', callingNumbers: [inactive.id] }).expect(400);
      expect(none.body.errorMessage).toBe('At least one active outbound phone number is required');
    });

    it('answers 403 for missing or invalid credentials, and lets an API key win over a bearer token', async () => {
      const body = { batchName: 'By key', callingNumbers: [phoneId] };
      await t.http.post('/api/call/createBatch').send(body).expect(403);
      await t.http.post('/api/call/createBatch').set('x-api-key', 'sb_bad').send(body).expect(403);
      await t.http.post('/api/call/createBatch').set(bearer('x.y.z')).send(body).expect(403);
      const { key } = await createApiKey(t.http, admin.token);
      const other = await registerOrganization(t.http);
      const created = await t.http
        .post('/api/call/createBatch')
        .set(bearer(other.token))
        .set('x-api-key', key)
        .send(body)
        .expect(201);
      const [row] = await t.app
        .get(Database)
        .db.select()
        .from(batches)
        .where(eq(batches.id, created.body.data));
      expect(row.organizationId).toBe(admin.organizationId);
    });

    it('replays the first result for the same Idempotency-Key and body, 422 for another body', async () => {
      const body = { batchName: 'Once', callingNumbers: [phoneId] };
      const first = await createBatch(body).set('Idempotency-Key', 'create-once-1').expect(201);
      const again = await createBatch({ callingNumbers: [phoneId], batchName: 'Once' })
        .set('Idempotency-Key', 'create-once-1')
        .expect(201);
      expect(again.body).toEqual(first.body);
      const conflict = await createBatch({ ...body, batchName: 'Twice' })
        .set('Idempotency-Key', 'create-once-1')
        .expect(422);
      expect(conflict.body.errorMessage).toContain('different request body');
      const rows = await t.app
        .get(Database)
        .db.select()
        .from(batches)
        .where(eq(batches.batchName, 'Once'));
      expect(rows).toHaveLength(1);
    });

    it('answers 403 to a member without the calls permission', async () => {
      const member = await createMember(t.http, admin.token, ['dnc']);
      await createBatch({ batchName: 'x', callingNumbers: [phoneId] }, member.token).expect(403);
    });
  });

  describe('GET /api/call/batches/{userId}', () => {
    it('lists the caller’s live batches newest first with pagination and search', async () => {
      const owner = await registerOrganization(t.http);
      const names = ['Alpha', 'Beta', 'Gamma'];
      for (const batchName of names)
        await make.batch(owner.organizationId, owner.userId, { batchName });
      const deleted = await make.batch(owner.organizationId, owner.userId, {
        batchName: 'Deleted',
      });
      await t.http
        .delete(`/api/call/delete-batch/${deleted.id}`)
        .set(bearer(owner.token))
        .expect(200);

      const page = await t.http
        .get(`/api/call/batches/${owner.userId}?limit=2`)
        .set(bearer(owner.token))
        .expect(200);
      expect(page.body).toMatchObject({
        message: 'Batches fetched',
        status: true,
        code: 200,
        errorMessage: '',
      });
      expect(page.body.data.batches.map((b: { batchName: string }) => b.batchName)).toEqual([
        'Gamma',
        'Beta',
      ]);
      expect(page.body.data.pagination).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
      expect(Object.keys(page.body.data.batches[0]).sort()).toEqual(
        [
          '_id',
          'batchName',
          'callsCompleted',
          'callsPicked',
          'createdAt',
          'queue_status',
          'statusReason',
          'totalCalls',
          'updatedAt',
        ].sort(),
      );
      const second = await t.http
        .get(`/api/call/batches/${owner.userId}?page=2&limit=2`)
        .set(bearer(owner.token))
        .expect(200);
      expect(second.body.data.batches.map((b: { batchName: string }) => b.batchName)).toEqual([
        'Alpha',
      ]);
      const searched = await t.http
        .get(`/api/call/batches/${owner.userId}?search=alp`)
        .set(bearer(owner.token))
        .expect(200);
      expect(searched.body.data.pagination.total).toBe(1);
      const byStatus = await t.http
        .get(`/api/call/batches/${owner.userId}?search=ACTIVE`)
        .set(bearer(owner.token))
        .expect(200);
      expect(byStatus.body.data.pagination.total).toBe(3);
      await t.http
        .get(`/api/call/batches/${owner.userId}?search=nothing`)
        .set(bearer(owner.token))
        .expect(404);
    });

    it('answers 400 for a malformed user id or query, 403 for someone else of the organization, 404 for another organization’s user or when there are none', async () => {
      const fresh = await registerOrganization(t.http);
      await t.http.get('/api/call/batches/nope').set(bearer(fresh.token)).expect(400);
      await t.http
        .get(`/api/call/batches/${fresh.userId}?limit=101`)
        .set(bearer(fresh.token))
        .expect(400);
      await t.http
        .get(`/api/call/batches/${fresh.userId}?page=0`)
        .set(bearer(fresh.token))
        .expect(400);
      // A user of another organization is not seen, exactly as an unknown id.
      await t.http.get(`/api/call/batches/${admin.userId}`).set(bearer(fresh.token)).expect(404);
      const member = await createMember(t.http, admin.token, ['calls']);
      await t.http.get(`/api/call/batches/${admin.userId}`).set(bearer(member.token)).expect(403);
      const none = await t.http
        .get(`/api/call/batches/${fresh.userId}`)
        .set(bearer(fresh.token))
        .expect(404);
      expect(none.body).toMatchObject({
        status: false,
        code: 404,
        errorMessage: 'No batches found for this user',
      });
    });
  });

  describe('GET /api/call/batch-details/{id}', () => {
    it('filters by who answered and sorts by reply latency, records without one last', async () => {
      const batch = await make.batch(admin.organizationId, admin.userId, { batchName: 'Latency' });
      const records = await make.callRecords(batch, [
        { name: 'Slow' },
        { name: 'Fast' },
        { name: 'Machine' },
      ]);
      const turns = (...totals: number[]) =>
        totals.flatMap((totalMs, i) => [
          { role: 'callee' as const, text: `q${i}`, startedAt: '2026-12-02T10:00:00.000Z' },
          {
            role: 'agent' as const,
            text: `a${i}`,
            startedAt: '2026-12-02T10:00:01.000Z',
            latency: { totalMs, recognitionMs: 100, modelMs: 200, synthesisMs: 100 },
          },
        ]);
      await make.phoneLog(records[0], {
        callStatus: 'completed',
        answerOutcome: 'human',
        turns: turns(900, 2_400, 1_000),
      });
      await make.phoneLog(records[1], {
        callStatus: 'completed',
        answerOutcome: 'human',
        turns: turns(700, 800),
      });
      await make.phoneLog(records[2], { callStatus: 'voicemail', answerOutcome: 'voicemail' });
      const details = (query: Record<string, string>) =>
        t.http
          .get(`/api/call/batch-details/${batch.id}`)
          .query(query)
          .set(bearer(admin.token))
          .expect(200)
          .then((response) =>
            (response.body.data.data as Array<{ name: string }>).map((row) => row.name),
          );
      expect(await details({ sortBy: 'turnLatencyP95', sortOrder: 'desc' })).toEqual([
        'Slow',
        'Fast',
        'Machine',
      ]);
      expect(await details({ sortBy: 'turnLatencyP95', sortOrder: 'asc' })).toEqual([
        'Fast',
        'Slow',
        'Machine',
      ]);
      expect(await details({ sortBy: 'turnLatencyP50', sortOrder: 'asc' })).toEqual([
        'Fast',
        'Slow',
        'Machine',
      ]);
      expect(await details({ filter: JSON.stringify({ answerOutcome: 'voicemail' }) })).toEqual([
        'Machine',
      ]);
    });

    it('pages call records with their phone logs, filter, sort and regex search', async () => {
      const batch = await make.batch(admin.organizationId, admin.userId, { batchName: 'Details' });
      const records = await make.callRecords(batch, [
        { name: 'Ann Smith', account_id: 'A-1', priority: 'high' },
        { name: 'Bob Jones', account_id: 'A-2', priority: 'low' },
        { name: 'Cid Smith', account_id: 'A-3', priority: 'low' },
      ]);
      await make.phoneLog(records[0], { callStatus: 'failed', callDuration: 0 });
      await make.phoneLog(records[0], {
        callStatus: 'completed',
        callDuration: 61,
        recordingUrl: 'https://r/1',
        transcript: 'hi',
      });
      await make.phoneLog(records[1], { callStatus: 'no-answer', callDuration: 0 });

      const all = await t.http
        .get(`/api/call/batch-details/${batch.id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(all.body).toMatchObject({
        message: 'Batch details fetched',
        status: true,
        code: 200,
        errorMessage: '',
      });
      expect(all.body.data).toMatchObject({
        batchId: batch.id,
        batchName: 'Details',
        batchStatus: 'active',
        page: 1,
        limit: 10,
        total: 3,
        totalPages: 1,
      });
      const first = all.body.data.data[0];
      expect(first).toMatchObject({
        _id: records[0].id,
        phoneNumber: records[0].phoneNumber,
        name: 'Ann Smith',
        account_id: 'A-1',
        priority: 'high',
      });
      expect(first.phoneLogs.map((log: { callStatus: string }) => log.callStatus)).toEqual([
        'failed',
        'completed',
      ]);
      expect(Object.keys(first.phoneLogs[1]).sort()).toEqual(
        [
          '_id',
          'analysis',
          'answerOutcome',
          'answerOutcomeMs',
          'callDuration',
          'callStatus',
          'collectedDigits',
          'createdAt',
          'endedBy',
          'failedDependency',
          'recordingUrl',
          'requestUUID',
          'summary',
          'transcript',
          'transferredAt',
          'transferredTo',
          'turnLatency',
          'turns',
        ].sort(),
      );
      // No reply answered anyone on these logs: no latency to report.
      expect(first.phoneLogs[1].turnLatency).toBeNull();
      // No media stream heard these calls answered.
      expect(first.phoneLogs[1]).toMatchObject({ answerOutcome: null, answerOutcomeMs: null });
      // Nothing was typed on the keypad.
      expect(first.phoneLogs[1].collectedDigits).toEqual({});
      expect(all.body.data.data[2]).not.toHaveProperty('phoneLogs');

      const completed = await t.http
        .get(`/api/call/batch-details/${batch.id}`)
        .query({ filter: JSON.stringify({ callStatus: 'completed' }) })
        .set(bearer(admin.token))
        .expect(200);
      expect(completed.body.data.total).toBe(1);
      expect(completed.body.data.data[0]._id).toBe(records[0].id);
      const failedEver = await t.http
        .get(`/api/call/batch-details/${batch.id}`)
        .query({ filter: JSON.stringify({ callStatus: 'failed' }) })
        .set(bearer(admin.token))
        .expect(200);
      expect(failedEver.body.data.total).toBe(0);

      const sorted = await t.http
        .get(`/api/call/batch-details/${batch.id}?sortBy=name&sortOrder=desc`)
        .set(bearer(admin.token))
        .expect(200);
      expect(sorted.body.data.data.map((r: { name: string }) => r.name)).toEqual([
        'Cid Smith',
        'Bob Jones',
        'Ann Smith',
      ]);
      const searched = await t.http
        .get(`/api/call/batch-details/${batch.id}`)
        .query({ search: 'smi(th)$' })
        .set(bearer(admin.token))
        .expect(200);
      expect(searched.body.data.data.map((r: { name: string }) => r.name)).toEqual([
        'Ann Smith',
        'Cid Smith',
      ]);
      expect(searched.body.data.total).toBe(2);
      const paged = await t.http
        .get(`/api/call/batch-details/${batch.id}?page=2&limit=2`)
        .set(bearer(admin.token))
        .expect(200);
      expect(paged.body.data).toMatchObject({ page: 2, limit: 2, total: 3, totalPages: 2 });
      expect(paged.body.data.data).toHaveLength(1);
    });

    it('answers 400 for a bad id, filter JSON, regex or range; 404 for another organization', async () => {
      const batch = await make.batch(admin.organizationId, admin.userId);
      const path = `/api/call/batch-details/${batch.id}`;
      await t.http.get('/api/call/batch-details/xyz').set(bearer(admin.token)).expect(400);
      const badJson = await t.http
        .get(path)
        .query({ filter: '{callStatus:' })
        .set(bearer(admin.token))
        .expect(400);
      expect(badJson.body.errorMessage).toContain('filter must be a JSON object');
      await t.http.get(path).query({ filter: '{"name":"x"}' }).set(bearer(admin.token)).expect(400);
      const badRegex = await t.http
        .get(path)
        .query({ search: '(unclosed' })
        .set(bearer(admin.token))
        .expect(400);
      expect(badRegex.body.errorMessage).toBe('search is not a valid regular expression');
      await t.http.get(`${path}?limit=500`).set(bearer(admin.token)).expect(400);
      await t.http.get(`${path}?sortOrder=sideways`).set(bearer(admin.token)).expect(400);

      const other = await registerOrganization(t.http);
      await t.http.get(path).set(bearer(other.token)).expect(404);
    });
  });

  describe('DELETE /api/call/delete-batch/{batchId}', () => {
    it('deletes for good for an admin, then 404; hidden from details', async () => {
      const batch = await make.batch(admin.organizationId, admin.userId);
      const member = await createMember(t.http, admin.token, ['calls']);
      await t.http
        .delete(`/api/call/delete-batch/${batch.id}`)
        .set(bearer(member.token))
        .expect(403);
      await t.http.delete(`/api/call/delete-batch/${batch.id}`).expect(401);
      const deleted = await t.http
        .delete(`/api/call/delete-batch/${batch.id}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(deleted.body).toEqual({ success: true, message: 'Batch deleted' });
      await t.http
        .delete(`/api/call/delete-batch/${batch.id}`)
        .set(bearer(admin.token))
        .expect(404);
      await t.http.get(`/api/call/batch-details/${batch.id}`).set(bearer(admin.token)).expect(404);
      await t.http.delete('/api/call/delete-batch/bad').set(bearer(admin.token)).expect(400);
      const other = await registerOrganization(t.http);
      const foreign = await make.batch(other.organizationId, other.userId);
      await t.http
        .delete(`/api/call/delete-batch/${foreign.id}`)
        .set(bearer(admin.token))
        .expect(404);
    });
  });

  describe('pause, resume, and phone numbers leaving batches', () => {
    it('moves between active and paused, and pauses a batch whose last number is deleted', async () => {
      const phoneA = await make.phone(admin.organizationId, admin.userId);
      const phoneB = await make.phone(admin.organizationId, admin.userId);
      const id = (
        await createBatch({
          batchName: 'Two numbers',
          callingNumbers: [phoneA.id, phoneB.id],
        }).expect(201)
      ).body.data;
      const paused = await t.http
        .post(`/api/call/batches/${id}/pause`)
        .set(bearer(admin.token))
        .expect(200);
      expect(paused.body.data.queue_status).toBe('paused');
      await t.http.post(`/api/call/batches/${id}/pause`).set(bearer(admin.token)).expect(409);
      await t.http.post(`/api/call/batches/${id}/resume`).set(bearer(admin.token)).expect(200);

      await t.http
        .delete(`/api/call/delete-phone/${phoneA.id}`)
        .set(bearer(admin.token))
        .expect(200);
      const db = t.app.get(Database).db;
      let [row] = await db.select().from(batches).where(eq(batches.id, id));
      expect(row).toMatchObject({ callingNumbers: [phoneB.id], queueStatus: 'active' });
      await t.http
        .delete(`/api/call/delete-phone/${phoneB.id}`)
        .set(bearer(admin.token))
        .expect(200);
      [row] = await db.select().from(batches).where(eq(batches.id, id));
      expect(row).toMatchObject({ callingNumbers: [], queueStatus: 'paused' });
      expect(row.statusReason).toBe('no_calling_number');
      const resume = await t.http
        .post(`/api/call/batches/${id}/resume`)
        .set(bearer(admin.token))
        .expect(409);
      expect(resume.body.errorMessage).toBe(
        'At least one active outbound phone number is required',
      );
    });
  });
});
