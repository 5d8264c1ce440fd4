import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import { CallingFactories } from '../support/calling-factories';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const iso = (date: Date) => date.toISOString();

describe('call records CSV export', () => {
  let t: TestApp;
  let calls: CallingFactories;
  let admin: RegisteredAdmin;

  beforeAll(async () => {
    t = await startTestApp();
    calls = new CallingFactories(t);
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
  });

  const exportCsv = (batchId: string, token = admin.token) =>
    t.http.get('/api/call/export/csv').query({ batchId }).set(bearer(token));

  it('writes one row per record with its contact fields and its latest phone log', async () => {
    const batch = await calls.batch(admin.organizationId, admin.userId);
    const [ada, eve, bob] = await calls.callRecords(batch, [
      { phoneNumber: '+14155550101', name: 'Ada', city: 'Oslo, Norway' },
      { phoneNumber: '+14155550102', name: 'Eve', note: '=HYPERLINK("http://evil.example","x")' },
      { phoneNumber: '+14155550103' },
    ]);
    const older = new Date('2026-11-20T09:00:00.000Z');
    const newer = new Date('2026-11-21T10:30:00.000Z');
    await calls.phoneLog(ada, { callStatus: 'no-answer', callDuration: 0, createdAt: older });
    const latest = await calls.phoneLog(ada, {
      callStatus: 'completed',
      callDuration: 73,
      recordingUrl: 'https://recordings.example/ada.mp3',
      transcript: 'Hello, "Ada" here\nbye',
      createdAt: newer,
    });
    await calls.phoneLog(eve, {
      callStatus: '-failed' as 'failed',
      callDuration: 0,
      createdAt: older,
    });

    const response = await exportCsv(batch.id).expect(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="batch-${batch.id}.csv"`,
    );
    const header =
      '_id,phoneNumber,city,name,note,callStatus,callDuration,recordingUrl,transcript,' +
      'requestUUID,lastCalledAt,createdAt';
    expect(response.text.split('\r\n')[0]).toBe(header);
    expect(response.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    const rows = parse<Record<string, string>>(response.text, { columns: true });
    expect(rows).toEqual([
      {
        _id: ada.id,
        phoneNumber: "'+14155550101",
        city: 'Oslo, Norway',
        name: 'Ada',
        note: '',
        callStatus: 'completed',
        callDuration: '73',
        recordingUrl: 'https://recordings.example/ada.mp3',
        transcript: 'Hello, "Ada" here\nbye',
        requestUUID: latest.requestUuid,
        lastCalledAt: iso(newer),
        createdAt: iso(ada.createdAt),
      },
      {
        _id: eve.id,
        phoneNumber: "'+14155550102",
        city: '',
        name: 'Eve',
        note: `'=HYPERLINK("http://evil.example","x")`,
        callStatus: "'-failed",
        callDuration: '0',
        recordingUrl: '',
        transcript: '',
        requestUUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
        lastCalledAt: iso(older),
        createdAt: iso(eve.createdAt),
      },
      {
        _id: bob.id,
        phoneNumber: "'+14155550103",
        city: '',
        name: '',
        note: '',
        callStatus: '',
        callDuration: '',
        recordingUrl: '',
        transcript: '',
        requestUUID: '',
        lastCalledAt: '',
        createdAt: iso(bob.createdAt),
      },
    ]);
  });

  it('names a contact field that clashes with a call column contact.<name>', async () => {
    const batch = await calls.batch(admin.organizationId, admin.userId);
    await calls.callRecords(batch, [{ phoneNumber: '+14155550104', callStatus: 'vip' }]);
    const response = await exportCsv(batch.id).expect(200);
    const [row] = parse<Record<string, string>>(response.text, { columns: true });
    expect(row).toMatchObject({ 'contact.callStatus': 'vip', callStatus: '' });
  });

  it('writes the header alone for an empty batch', async () => {
    const batch = await calls.batch(admin.organizationId, admin.userId);
    const response = await exportCsv(batch.id).expect(200);
    expect(response.text).toBe(
      '_id,phoneNumber,callStatus,callDuration,recordingUrl,transcript,requestUUID,' +
        'lastCalledAt,createdAt\r\n',
    );
  });

  it('streams a 20,000-record batch completely, in creation order, without repeats', async () => {
    const batch = await calls.batch(admin.organizationId, admin.userId);
    // Four creation times, so pages cross both ties (same created_at) and time steps.
    await t.app.get(Database).db.execute(sql`
      INSERT INTO call_records (organization_id, batch_id, phone_number, contact, created_at)
      SELECT ${admin.organizationId}, ${batch.id}, '+1415' || (3000000 + i)::text,
        jsonb_build_object('n', i::text), now() - ((i % 4) || ' minutes')::interval
      FROM generate_series(1, 20000) AS i`);
    await t.app
      .get(Database)
      .db.update(batches)
      .set({ totalCalls: 20_000 })
      .where(eq(batches.id, batch.id));
    const response = await exportCsv(batch.id).expect(200);
    const rows = parse<Record<string, string>>(response.text, { columns: true });
    expect(rows).toHaveLength(20_000);
    expect(new Set(rows.map((row) => row._id)).size).toBe(20_000);
    const created = rows.map((row) => row.createdAt);
    expect([...created].sort()).toEqual(created);
  });

  it('answers 404 for another organization, a deleted or unknown batch; 400 for a bad batchId', async () => {
    const other = await registerOrganization(t.http);
    const foreign = await calls.batch(other.organizationId, other.userId);
    const deleted = await calls.batch(admin.organizationId, admin.userId, { isDeleted: true });
    for (const id of [foreign.id, deleted.id, '65f1c0ffee0123456789abcd']) {
      const response = await exportCsv(id).expect(404);
      expect(response.body).toMatchObject({ status: false, code: 404 });
    }
    await exportCsv('nope').expect(400);
    const missing = await t.http.get('/api/call/export/csv').set(bearer(admin.token)).expect(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'batchId' })]);
  });

  it('needs the calls permission', async () => {
    const batch = await calls.batch(admin.organizationId, admin.userId);
    const member = await createMember(t.http, admin.token, ['dnc']);
    await exportCsv(batch.id, member.token).expect(403);
  });
});
