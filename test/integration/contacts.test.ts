import { count, eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { batches, type BatchRow } from '../../src/modules/batches/batches.schema';
import { callRecords } from '../../src/modules/call-records/call-records.schema';
import { dncEntries } from '../../src/modules/dnc/dnc.schema';
import { CallingFactories } from '../support/calling-factories';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const UPLOAD_MAX_BYTES = 4_096;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
let sequence = 0;
/** A valid US number, unique in this file. */
const nextNumber = () => `+1415${String(2_000_000 + (sequence += 1)).padStart(7, '0')}`;

describe('contacts import', () => {
  let t: TestApp;
  let calls: CallingFactories;
  let admin: RegisteredAdmin;
  let other: RegisteredAdmin;

  beforeAll(async () => {
    t = await startTestApp({ env: { UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) } });
    calls = new CallingFactories(t);
    admin = await registerOrganization(t.http);
    other = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.app.get(Database).db;
  const newBatch = (overrides: Partial<typeof batches.$inferInsert> = {}) =>
    calls.batch(admin.organizationId, admin.userId, overrides);
  const url = (batchId: string) => `/api/call/batches/${batchId}/contacts`;
  const postJson = (batchId: string, contacts: unknown, token = admin.token) =>
    t.http.post(url(batchId)).set(bearer(token)).send({ contacts });
  const upload = (batchId: string, csv: string | Buffer, type = 'text/csv', name = 'c.csv') =>
    t.http
      .post(url(batchId))
      .set(bearer(admin.token))
      .attach('file', Buffer.from(csv), { filename: name, contentType: type });
  /** totalCalls must always equal the batch's call records. */
  const expectCounterInStep = async (batchId: string, expected: number) => {
    const [{ total }] = await db()
      .select({ total: count() })
      .from(callRecords)
      .where(eq(callRecords.batchId, batchId));
    const [batch] = await db().select().from(batches).where(eq(batches.id, batchId));
    expect({ records: total, totalCalls: batch.totalCalls }).toEqual({
      records: expected,
      totalCalls: expected,
    });
  };

  describe('as JSON', () => {
    it('imports valid rows and reports every other row with its reason', async () => {
      const batch = await newBatch();
      const existing = nextNumber();
      const blocked = nextNumber();
      await calls.callRecords(batch, [{ phoneNumber: existing }]);
      await db()
        .insert(dncEntries)
        .values({ organizationId: admin.organizationId, phoneNumber: blocked });
      const [a, b] = [nextNumber(), nextNumber()];
      const response = await postJson(batch.id, [
        { phoneNumber: a, name: 'Ada', age: 36, vip: true, empty: '' },
        { phoneNumber: 'not a number', name: 'Bad' },
        { name: 'No number' },
        { phoneNumber: a.slice(1), name: 'Ada again, + stripped' },
        { phoneNumber: existing },
        { phoneNumber: blocked },
        { phoneNumber: b, _id: 'mine' },
        { phoneNumber: b, city: 'Oslo' },
      ]).expect(201);
      expect(response.body).toEqual({
        message: 'Contacts imported',
        status: true,
        code: 201,
        errorMessage: '',
        data: {
          received: 8,
          imported: 2,
          rejected: 6,
          errorsTruncated: false,
          errors: [
            { row: 2, reason: 'invalid_number', phoneNumber: 'not a number' },
            { row: 3, reason: 'missing_phone_number' },
            { row: 4, reason: 'duplicate_in_batch', phoneNumber: a },
            { row: 5, reason: 'duplicate_in_batch', phoneNumber: existing },
            { row: 6, reason: 'on_dnc_list', phoneNumber: blocked },
            { row: 7, reason: 'invalid_field', phoneNumber: b, field: '_id' },
          ],
        },
      });
      expect(await calls.storedContacts(batch.id)).toEqual([
        { phoneNumber: existing, contact: {} },
        { phoneNumber: a, contact: { name: 'Ada', age: '36', vip: 'true' } },
        { phoneNumber: b, contact: { city: 'Oslo' } },
      ]);
      await expectCounterInStep(batch.id, 3);
    });

    it('finds duplicates across chunks of a 10,000-contact request', async () => {
      const batch = await newBatch();
      const contacts = Array.from({ length: 10_000 }, () => ({ phoneNumber: nextNumber() }));
      contacts[7_000] = { phoneNumber: contacts[10].phoneNumber };
      const { body } = await postJson(batch.id, contacts).expect(201);
      expect(body.data).toEqual({
        received: 10_000,
        imported: 9_999,
        rejected: 1,
        errorsTruncated: false,
        errors: [
          { row: 7_001, reason: 'duplicate_in_batch', phoneNumber: contacts[10].phoneNumber },
        ],
      });
      await expectCounterInStep(batch.id, 9_999);
    });

    it('lists the first 1,000 errors and counts them all', async () => {
      const batch = await newBatch();
      const contacts = Array.from({ length: 1_500 }, (_, i) => ({ phoneNumber: `bad-${i}` }));
      const { body } = await postJson(batch.id, contacts).expect(201);
      expect(body.data).toMatchObject({
        received: 1_500,
        imported: 0,
        rejected: 1_500,
        errorsTruncated: true,
      });
      expect(body.data.errors).toHaveLength(1_000);
      expect(body.data.errors[999]).toEqual({
        row: 1_000,
        reason: 'invalid_number',
        phoneNumber: 'bad-999',
      });
    });

    it('reports values PostgreSQL cannot store instead of failing the chunk', async () => {
      const batch = await newBatch();
      const [a, b, c] = [nextNumber(), nextNumber(), nextNumber()];
      const { body } = await postJson(batch.id, [
        { phoneNumber: a, note: 'nul \u0000 inside' },
        { phoneNumber: b, note: 'lone \ud800 surrogate' },
        { phoneNumber: c, note: 'fine 👍' },
      ]).expect(201);
      expect(body.data).toMatchObject({ imported: 1, rejected: 2 });
      expect(body.data.errors).toEqual([
        { row: 1, reason: 'invalid_field', phoneNumber: a, field: 'note' },
        { row: 2, reason: 'invalid_field', phoneNumber: b, field: 'note' },
      ]);
      await expectCounterInStep(batch.id, 1);
    });

    it('refuses a malformed body', async () => {
      const batch = await newBatch();
      await postJson(batch.id, 'nope').expect(400);
      await postJson(batch.id, ['+14155551234']).expect(400);
      await postJson(
        batch.id,
        Array.from({ length: 10_001 }, () => ({})),
      ).expect(400);
      const missing = await t.http.post(url(batch.id)).set(bearer(admin.token)).send({});
      expect(missing.status).toBe(400);
      expect(missing.body.errorMessage).toMatch(/contacts is required/);
      await expectCounterInStep(batch.id, 0);
    });
  });

  describe('as a CSV upload', () => {
    it('survives spreadsheet damage and keeps extra columns as contact fields', async () => {
      const batch = await newBatch();
      const [a, b, c, d] = [nextNumber(), nextNumber(), nextNumber(), nextNumber()];
      const csv =
        '\uFEFFPhoneNumber, name ,"company name",notes\r\n' +
        `${a.slice(1)},Ada,"Acme, Inc","said ""call me"""\r\n` +
        '\r\n' +
        `  "${b}" , Grace ,,\r\n` +
        ',,,\r\n' +
        `1.${c.slice(2)}E+10,Sci,,\r\n` +
        '1.41556E+10,Truncated,,\r\n' +
        `'${d},Apostrophe,,\n` +
        ',No number,,\n' +
        `${a},Again,,\n`;
      const { body } = await upload(batch.id, csv).expect(201);
      expect(body.data).toEqual({
        received: 7,
        imported: 4,
        rejected: 3,
        errorsTruncated: false,
        errors: [
          { row: 4, reason: 'invalid_number', phoneNumber: '1.41556E+10' },
          { row: 6, reason: 'missing_phone_number' },
          { row: 7, reason: 'duplicate_in_batch', phoneNumber: a },
        ],
      });
      expect(await calls.storedContacts(batch.id)).toEqual([
        {
          phoneNumber: a,
          contact: { name: 'Ada', 'company name': 'Acme, Inc', notes: 'said "call me"' },
        },
        { phoneNumber: b, contact: { name: 'Grace' } },
        { phoneNumber: c, contact: { name: 'Sci' } },
        { phoneNumber: d, contact: { name: 'Apostrophe' } },
      ]);
      await expectCounterInStep(batch.id, 4);
    });

    it('reports a cell without a column name and an over-long value', async () => {
      const batch = await newBatch();
      const [a, b] = [nextNumber(), nextNumber()];
      const csv = `phoneNumber,name\n${a},Ada,surplus\n${b},${'x'.repeat(1_001)}\n`;
      const { body } = await upload(batch.id, csv).expect(201);
      expect(body.data.errors).toEqual([
        { row: 1, reason: 'invalid_field', phoneNumber: a, field: '<unnamed column 3>' },
        { row: 2, reason: 'invalid_field', phoneNumber: b, field: 'name' },
      ]);
    });

    it('answers 400 for a file without a phoneNumber column, bad column names or broken quoting', async () => {
      const batch = await newBatch();
      const noPhone = await upload(batch.id, 'phone,name\n+14155551234,Ada\n').expect(400);
      expect(noPhone.body.errorMessage).toMatch(/phoneNumber column/);
      const reserved = await upload(batch.id, 'phoneNumber,_id\n+14155551234,x\n').expect(400);
      expect(reserved.body.errorMessage).toMatch(/"_id": reserved field name/);
      await upload(batch.id, 'phoneNumber,name\n+14155551234,"Ada\n').expect(400);
      await upload(batch.id, '').expect(400);
      await expectCounterInStep(batch.id, 0);
    });

    it('answers 413 for a file over UPLOAD_MAX_BYTES and imports nothing from it', async () => {
      const batch = await newBatch();
      const lines = ['phoneNumber'];
      while (lines.join('\n').length <= UPLOAD_MAX_BYTES) lines.push(nextNumber());
      const streamed = await upload(batch.id, lines.join('\n')).expect(413);
      expect(streamed.body).toMatchObject({ status: false, code: 413 });
      expect(streamed.body.errorMessage).toMatch(/4096-byte upload limit/);
      // Refused from Content-Length before reading.
      await upload(batch.id, `phoneNumber\n${'+14155551234\n'.repeat(10_000)}`).expect(413);
      await expectCounterInStep(batch.id, 0);
      // Exactly at the limit is fine.
      const exact = `phoneNumber\n${nextNumber()}\n`.padEnd(UPLOAD_MAX_BYTES, '\n');
      await upload(batch.id, exact).expect(201);
    });

    it('answers 415 for anything but JSON or a CSV upload, 400 without a file part', async () => {
      const batch = await newBatch();
      const text = await t.http
        .post(url(batch.id))
        .set(bearer(admin.token))
        .set('Content-Type', 'text/plain')
        .send('phoneNumber\n+14155551234\n')
        .expect(415);
      expect(text.body).toMatchObject({ status: false, code: 415 });
      await upload(batch.id, 'phoneNumber\n', 'image/png', 'c.png').expect(415);
      const noFile = await t.http
        .post(url(batch.id))
        .set(bearer(admin.token))
        .field('name', 'x')
        .expect(400);
      expect(noFile.body.errorMessage).toMatch(/field named file/);
    });
  });

  describe('access', () => {
    it('answers 404 for a batch of another organization, a deleted or unknown one; 400 for a malformed id', async () => {
      const foreign = await calls.batch(other.organizationId, other.userId);
      const deleted = await newBatch({ isDeleted: true, deletedAt: new Date() });
      const contacts = [{ phoneNumber: nextNumber() }];
      for (const id of [foreign.id, deleted.id, '65f1c0ffee0123456789abcd']) {
        const response = await postJson(id, contacts).expect(404);
        expect(response.body).toMatchObject({ status: false, code: 404 });
        await upload(id, `phoneNumber\n${nextNumber()}\n`).expect(404);
      }
      await postJson('not-an-id', contacts).expect(400);
      await expectCounterInStep(foreign.id, 0);
    });

    it('needs the calls permission', async () => {
      const plain = await createMember(t.http, admin.token, ['dnc']);
      const caller = await createMember(t.http, admin.token, ['calls']);
      const batch: BatchRow = await calls.batch(admin.organizationId, caller.userId);
      await postJson(batch.id, [{ phoneNumber: nextNumber() }], plain.token).expect(403);
      await postJson(batch.id, [{ phoneNumber: nextNumber() }], caller.token).expect(201);
      await expectCounterInStep(batch.id, 1);
    });
  });
});
