import { count, eq } from 'drizzle-orm';
import type { Test } from 'supertest';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import { callRecords } from '../../src/modules/call-records/call-records.schema';
import { dncEntries } from '../../src/modules/dnc/dnc.schema';
import { CallingFactories } from '../support/calling-factories';
import {
  createApiKey,
  createMember,
  registerOrganization,
  type RegisteredAdmin,
} from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const UPLOAD_MAX_BYTES = 4_096;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
let sequence = 0;
/** A valid US number, unique in this file. */
const nextNumber = () => `+1415${String(3_000_000 + (sequence += 1)).padStart(7, '0')}`;
/** A batch name unique in this file, to find (or not find) the batch a request made. */
const nextName = () => `Batch ${(sequence += 1)}`;

describe('createBatch with contacts', () => {
  let t: TestApp;
  let make: CallingFactories;
  let admin: RegisteredAdmin;
  let phoneId: string;
  let secondPhoneId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) } });
    make = new CallingFactories(t);
    admin = await registerOrganization(t.http);
    phoneId = (await make.phone(admin.organizationId, admin.userId)).id;
    secondPhoneId = (await make.phone(admin.organizationId, admin.userId)).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.app.get(Database).db;
  const post = () => t.http.post('/api/call/createBatch');
  const postJson = (body: object) => post().set(bearer(admin.token)).send(body);
  /** A multipart request: each [name, value] a form field, in order, then the CSV if given. */
  const postForm = (
    fields: [string, string][],
    csv?: string,
    options: { type?: string; request?: Test } = {},
  ) => {
    let request = options.request ?? post().set(bearer(admin.token));
    for (const [name, value] of fields) request = request.field(name, value);
    if (csv === undefined) return request;
    return request.attach('file', Buffer.from(csv), {
      filename: 'contacts.csv',
      contentType: options.type ?? 'text/csv',
    });
  };
  /** The form fields a batch cannot do without. */
  const requiredFields = (batchName: string): [string, string][] => [
    ['batchName', batchName],
    ['callingNumbers', phoneId],
  ];
  /** The 201 answer: a new batch id as data, and the contacts report when contacts were sent. */
  const created = (contacts: object) => ({
    message: 'Batch created',
    status: true,
    code: 201,
    errorMessage: '',
    data: expect.stringMatching(/^[0-9a-f]{24}$/),
    contacts,
  });
  const batchesNamed = (batchName: string) =>
    db().select().from(batches).where(eq(batches.batchName, batchName));
  const recordCount = async (batchId: string) =>
    (
      await db()
        .select({ total: count() })
        .from(callRecords)
        .where(eq(callRecords.batchId, batchId))
    )[0].total;
  const blockNumber = (phoneNumber: string) =>
    db().insert(dncEntries).values({ organizationId: admin.organizationId, phoneNumber });

  describe('as JSON', () => {
    it('creates the batch with normalized contacts and reports every rejected row', async () => {
      const batchName = nextName();
      const [a, b, blocked] = [nextNumber(), nextNumber(), nextNumber()];
      await blockNumber(blocked);
      const response = await postJson({
        batchName,
        callingNumbers: [phoneId],
        contacts: [
          { phoneNumber: a.slice(1), name: 'Ada', priority: 'high' },
          { phoneNumber: 'not a number', name: 'Bad' },
          { phoneNumber: a, name: 'Ada again' },
          { phoneNumber: blocked },
          { phoneNumber: ` ${b} `, account_id: 'A-2', age: 41 },
        ],
      }).expect(201);
      expect(response.body).toEqual(
        created({
          received: 5,
          imported: 2,
          rejected: 3,
          errorsTruncated: false,
          errors: [
            { row: 2, reason: 'invalid_number', phoneNumber: 'not a number' },
            { row: 3, reason: 'duplicate_in_batch', phoneNumber: a },
            { row: 4, reason: 'on_dnc_list', phoneNumber: blocked },
          ],
        }),
      );
      const batchId = response.body.data as string;
      const details = await t.http
        .get(`/api/call/batch-details/${batchId}`)
        .set(bearer(admin.token))
        .expect(200);
      expect(details.body.data).toMatchObject({ batchId, batchName, total: 2 });
      expect(details.body.data.data).toEqual([
        expect.objectContaining({ phoneNumber: a, name: 'Ada', priority: 'high' }),
        expect.objectContaining({ phoneNumber: b, account_id: 'A-2', age: '41' }),
      ]);
      const [row] = await batchesNamed(batchName);
      expect(row.totalCalls).toBe(2);
    });

    it('answers 400 with field errors for malformed contacts and creates nothing', async () => {
      const batchName = nextName();
      const response = await postJson({
        batchName,
        callingNumbers: [phoneId],
        contacts: ['+14155551234'],
      }).expect(400);
      expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual([
        'contacts',
      ]);
      expect(await batchesNamed(batchName)).toHaveLength(0);
    });

    it('replays the first result, report included, for the same Idempotency-Key and body', async () => {
      const batchName = nextName();
      const body = {
        batchName,
        callingNumbers: [phoneId],
        contacts: [{ phoneNumber: nextNumber() }, { phoneNumber: 'bad' }],
      };
      const first = await postJson(body).set('Idempotency-Key', 'json-contacts-1').expect(201);
      expect(first.body.contacts).toMatchObject({ imported: 1, rejected: 1 });
      const again = await postJson(body).set('Idempotency-Key', 'json-contacts-1').expect(201);
      expect(again.body).toEqual(first.body);
      await postJson({ ...body, contacts: [{ phoneNumber: nextNumber() }] })
        .set('Idempotency-Key', 'json-contacts-1')
        .expect(422);
      expect(await batchesNamed(batchName)).toHaveLength(1);
      expect(await recordCount(first.body.data)).toBe(1);
    });
  });

  describe('as multipart/form-data', () => {
    it('takes repeated fields, text numbers and JSON callingHour, with a CSV of contacts', async () => {
      const batchName = nextName();
      const [a, b] = [nextNumber(), nextNumber()];
      const response = await postForm(
        [
          ['batchName', batchName],
          ['callingNumbers', phoneId],
          ['callingNumbers', secondPhoneId],
          ['retry', '2'],
          ['delay', '60'],
          ['timezone', 'America/New_York'],
          ['callingHour', '{"start":"09:00","end":"18:00"}'],
          ['allowedDays', '5'],
          ['allowedDays', '1'],
          ['retryOn', 'voicemail'],
          ['retryOn', 'fax'],
          ['enforceCalleeLocalHours', 'false'],
          ['trustContactTimezone', 'true'],
        ],
        `phoneNumber,name,account_id\n${a.slice(1)},Ada,A-1\nnope,Bad,A-2\n${b},Grace,\n${a},Twice,\n`,
      ).expect(201);
      expect(response.body).toEqual(
        created({
          received: 4,
          imported: 2,
          rejected: 2,
          errorsTruncated: false,
          errors: [
            { row: 2, reason: 'invalid_number', phoneNumber: 'nope' },
            { row: 4, reason: 'duplicate_in_batch', phoneNumber: a },
          ],
        }),
      );
      const [row] = await batchesNamed(batchName);
      expect(row).toMatchObject({
        id: response.body.data,
        callingNumbers: [phoneId, secondPhoneId],
        retry: 2,
        delay: 60,
        timezone: 'America/New_York',
        callingHourStart: '09:00',
        callingHourEnd: '18:00',
        allowedDays: [1, 5],
        retryOn: ['voicemail', 'fax'],
        enforceCalleeLocalHours: false,
        trustContactTimezone: true,
        totalCalls: 2,
      });
      expect(await make.storedContacts(row.id)).toEqual([
        { phoneNumber: a, contact: { name: 'Ada', account_id: 'A-1' } },
        { phoneNumber: b, contact: { name: 'Grace' } },
      ]);
    });

    it('takes callingNumbers and allowedDays as JSON array texts, and no file at all', async () => {
      const batchName = nextName();
      const response = await postForm([
        ['batchName', batchName],
        ['callingNumbers', JSON.stringify([phoneId, secondPhoneId])],
        ['allowedDays', '[2,3]'],
      ]).expect(201);
      expect(Object.keys(response.body)).not.toContain('contacts');
      const [row] = await batchesNamed(batchName);
      expect(row).toMatchObject({
        id: response.body.data,
        callingNumbers: [phoneId, secondPhoneId],
        allowedDays: [2, 3],
        // A contact's timezone is believed only where its number can be, unless asked.
        trustContactTimezone: false,
        totalCalls: 0,
      });
    });

    it('answers 400 with the same field errors as JSON and creates nothing', async () => {
      const batchName = nextName();
      const csv = `phoneNumber\n${nextNumber()}\n`;
      const response = await postForm(
        [
          ['batchName', batchName],
          ['callingNumbers', 'not-an-id'],
          ['retry', 'twice'],
          ['callingHour', '{"start":"9am","end":"18:00"}'],
          ['allowedDays', '7'],
          ['enforceCalleeLocalHours', 'maybe'],
          ['trustContactTimezone', 'perhaps'],
          ['colour', 'blue'],
        ],
        csv,
      ).expect(400);
      expect(response.body).toMatchObject({ status: false, code: 400 });
      const fields = response.body.errors.map((error: { field: string }) => error.field);
      expect(fields).toEqual(
        expect.arrayContaining([
          'callingNumbers',
          'retry',
          'callingHour.start',
          'allowedDays',
          'enforceCalleeLocalHours',
          'trustContactTimezone',
          'colour',
        ]),
      );
      const late = await postForm([['batchName', batchName]], csv, {
        request: post().set(bearer(admin.token)).field('callingNumbers', phoneId),
      })
        .field('retry', '2')
        .expect(400);
      expect(late.body.errorMessage).toMatch(/before the file: retry came after it/);
      expect(await batchesNamed(batchName)).toHaveLength(0);
    });

    it('answers 400 for a CSV without a phoneNumber column or malformed, and creates nothing', async () => {
      const batchName = nextName();
      const fields = requiredFields(batchName);
      const noPhone = await postForm(fields, `phone,name\n${nextNumber()},Ada\n`).expect(400);
      expect(noPhone.body.errorMessage).toMatch(/phoneNumber column/);
      // The first rows are valid: they are rolled back with the batch.
      await postForm(
        fields,
        `phoneNumber,name\n${nextNumber()},Ada\n${nextNumber()},"Bad\n`,
      ).expect(400);
      expect(await batchesNamed(batchName)).toHaveLength(0);
    });

    it('answers 413 for a file over UPLOAD_MAX_BYTES, 415 for a file that is not a CSV, and creates nothing', async () => {
      const batchName = nextName();
      const fields = requiredFields(batchName);
      const lines = ['phoneNumber'];
      while (lines.join('\n').length <= UPLOAD_MAX_BYTES) lines.push(nextNumber());
      const tooLarge = await postForm(fields, lines.join('\n')).expect(413);
      expect(tooLarge.body.errorMessage).toMatch(/4096-byte upload limit/);
      await postForm(fields, 'phoneNumber\n', { type: 'image/png' }).expect(415);
      expect(await batchesNamed(batchName)).toHaveLength(0);
    });

    it('replays the first result for the same key, fields and file; 422 for another file or fields', async () => {
      const batchName = nextName();
      const fields = requiredFields(batchName);
      const csv = `phoneNumber,name\n${nextNumber()},Ada\n${nextNumber()},Grace\n`;
      const keyed = () => post().set(bearer(admin.token)).set('Idempotency-Key', 'form-once-1');
      const first = await postForm(fields, csv, { request: keyed() }).expect(201);
      expect(first.body.contacts).toMatchObject({ imported: 2 });
      const again = await postForm(fields, csv, { request: keyed() }).expect(201);
      expect(again.body).toEqual(first.body);
      const otherFile = await postForm(fields, `${csv}${nextNumber()},Lin\n`, {
        request: keyed(),
      }).expect(422);
      expect(otherFile.body.errorMessage).toContain('different request body');
      await postForm([...fields, ['retry', '1']], csv, { request: keyed() }).expect(422);
      const [row] = await batchesNamed(batchName);
      expect(await batchesNamed(batchName)).toHaveLength(1);
      expect(row.totalCalls).toBe(2);
      expect(await recordCount(row.id)).toBe(2);
    });
  });

  it('creates one batch for two concurrent uploads with the same key: the twin replays or answers 409', async () => {
    const batchName = nextName();
    const csv = `phoneNumber\n${nextNumber()}\n${nextNumber()}\n${nextNumber()}\n`;
    const send = () =>
      postForm(requiredFields(batchName), csv, {
        request: post().set(bearer(admin.token)).set('Idempotency-Key', 'form-twins-1'),
      });
    const answers = await Promise.all([send(), send()]);
    const [first, ...twins] = answers
      .filter((answer) => answer.status !== 409)
      .map((answer) => answer.body as object);
    expect(first).toMatchObject({ code: 201 });
    for (const twin of twins) expect(twin).toEqual(first);
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    const rows = await batchesNamed(batchName);
    expect(rows).toHaveLength(1);
    expect(await recordCount(rows[0].id)).toBe(3);
  });

  describe('access', () => {
    it('accepts an API key and a bearer token, for JSON and for a form', async () => {
      const { key } = await createApiKey(t.http, admin.token);
      const byKey = nextName();
      const byKeyResponse = await postForm(
        requiredFields(byKey),
        `phoneNumber\n${nextNumber()}\n`,
        { request: post().set('x-api-key', key) },
      ).expect(201);
      expect(byKeyResponse.body.contacts.imported).toBe(1);
      const byKeyJson = await post()
        .set('x-api-key', key)
        .send({ batchName: nextName(), callingNumbers: [phoneId], contacts: [] })
        .expect(201);
      expect(byKeyJson.body.contacts).toEqual({
        received: 0,
        imported: 0,
        rejected: 0,
        errors: [],
        errorsTruncated: false,
      });
      const byToken = nextName();
      await postForm(requiredFields(byToken), `phoneNumber\n${nextNumber()}\n`).expect(201);
      expect((await batchesNamed(byKey))[0].userId).toBe(admin.userId);
      expect(await batchesNamed(byToken)).toHaveLength(1);
    });

    it('answers 403 without credentials or the calls permission, and creates nothing', async () => {
      const batchName = nextName();
      const fields = requiredFields(batchName);
      const csv = `phoneNumber\n${nextNumber()}\n`;
      await postForm(fields, csv, { request: post() }).expect(403);
      await postForm(fields, csv, { request: post().set('x-api-key', 'sb_bad') }).expect(403);
      const member = await createMember(t.http, admin.token, ['dnc']);
      await postForm(fields, csv, { request: post().set(bearer(member.token)) }).expect(403);
      await post()
        .set(bearer(member.token))
        .send({ batchName, callingNumbers: [phoneId], contacts: [{ phoneNumber: nextNumber() }] })
        .expect(403);
      expect(await batchesNamed(batchName)).toHaveLength(0);
    });
  });
});
