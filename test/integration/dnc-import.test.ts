import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { parse } from 'csv-parse/sync';
import { asc, count, eq } from 'drizzle-orm';
import { Client } from 'pg';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { createApp } from '../../src/create-app';
import { newObjectId } from '../../src/common/object-id';
import { Database } from '../../src/database';
import { callRecords } from '../../src/modules/call-records/call-records.schema';
import { dncEntries } from '../../src/modules/dnc/dnc.schema';
import { CallingFactories } from '../support/calling-factories';
import { completeDialingBatches, type DialerApp, startDialerApp } from '../support/dialer-app';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import { createMember, registerOrganization } from '../support/factories';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * The DNC list as data (#30): import from CSV and JSON uploads with a row-by-row report, the
 * whole list exported as CSV and JSON, and the lookup of a number in any written form.
 */
jest.setTimeout(180_000);

const UPLOAD_MAX_BYTES = 6 * 1024 * 1024;
const IMPORTED = {
  message: 'Do-not-call list imported',
  status: true,
  code: 201,
  errorMessage: '',
};
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
let sequence = 0;
/** A valid US number, unique in this file. */
const nextNumber = () => `+1628${String(2_000_000 + (sequence += 1))}`;
/** +16282000001 as people write it: +1 (628) 200-0001. */
const spaced = (e164: string) => `+1 (${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;

describe('DNC import, export and lookup', () => {
  let app: DialerApp | undefined;
  let t: TestApp;
  let calls: CallingFactories;
  const clock = new TestClock();

  beforeAll(async () => {
    app = await startDialerApp({ UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) });
    t = app.t;
    clock.install(t);
    calls = new CallingFactories(t);
  });
  afterAll(() => app?.close());
  afterEach(() => completeDialingBatches(t));

  const db = () => t.app.get(Database).db;
  const upload = (
    token: string,
    content: string | Buffer,
    { type = 'text/csv', name = 'dnc.csv', field = 'file' } = {},
  ) =>
    t.http
      .post('/api/dnc/import')
      .set(bearer(token))
      .attach(field, Buffer.from(content), { filename: name, contentType: type });
  const uploadJson = (token: string, entries: unknown) =>
    upload(token, JSON.stringify(entries), { type: 'application/json', name: 'dnc.json' });
  const check = (token: string, phoneNumber: string, include?: string) =>
    t.http
      .get('/api/dnc/check')
      .query({ phoneNumber, ...(include ? { include } : {}) })
      .set(bearer(token));
  const listed = async (token: string, phoneNumber: string) =>
    (await check(token, phoneNumber).expect(200)).body.data.onDncList as boolean;
  const entriesOf = (organizationId: string) =>
    db()
      .select()
      .from(dncEntries)
      .where(eq(dncEntries.organizationId, organizationId))
      .orderBy(asc(dncEntries.phoneNumber));
  const entryCount = async (organizationId: string) =>
    (
      await db()
        .select({ n: count() })
        .from(dncEntries)
        .where(eq(dncEntries.organizationId, organizationId))
    )[0].n;
  const exportList = (token: string, format: 'csv' | 'json' = 'csv') =>
    t.http.get(`/api/dnc/export/${format}`).set(bearer(token));
  /** A session of the test's own on the app's database. */
  const session = async () => {
    const client = new Client({ connectionString: t.database.url });
    await client.connect();
    return client;
  };
  const waitingLocks = async (client: Client, locktype: string) =>
    Number(
      (
        await client.query<{ n: string }>(
          // By the waiting session's database: a transactionid lock names none itself.
          'SELECT count(*) AS n FROM pg_locks WHERE locktype = $1 AND NOT granted AND pid IN ' +
            '(SELECT pid FROM pg_stat_activity WHERE datname = current_database())',
          [locktype],
        )
      ).rows[0].n,
    );

  it('imports a CSV: every row is added, already listed or rejected with its reason', async () => {
    const org = await registerOrganization(t.http);
    const [a, b, c, before] = [nextNumber(), nextNumber(), nextNumber(), nextNumber()];
    await db()
      .insert(dncEntries)
      .values({ organizationId: org.organizationId, phoneNumber: before, type: 'legal' });
    const active = await calls.batch(org.organizationId, org.userId);
    const done = await calls.batch(org.organizationId, org.userId, { queueStatus: 'completed' });
    const [pendingB] = await calls.callRecords(active, [{ phoneNumber: b }]);
    const [finishedB] = await calls.callRecords(done, [{ phoneNumber: b }]);

    const csv = [
      'Name,PhoneNumber,Type,Source',
      `Ada,${a},customer_request,crm`,
      `Bob,"${spaced(b)}",,`,
      'Cy,not a number,x,y',
      'Dee,,legal,crm',
      `Ed,${before},opt_out,crm`,
      `Fay,${a.slice(1)},other,crm`,
      '',
      `Gus,${c},${'x'.repeat(101)},crm`,
      `Hal,'${c},opt_out,"national, 2026"`,
    ].join('\r\n');
    const response = await upload(org.token, csv).expect(201);
    expect(response.body).toEqual({
      ...IMPORTED,
      data: {
        received: 8,
        imported: 3,
        alreadyListed: 2,
        rejected: 3,
        errorsTruncated: false,
        errors: [
          { row: 3, reason: 'invalid_number', phoneNumber: 'not a number' },
          { row: 4, reason: 'missing_phone_number' },
          { row: 7, reason: 'invalid_field', phoneNumber: c, field: 'Type' },
        ],
      },
    });

    const entries = await entriesOf(org.organizationId);
    const shape = (number: string) => {
      const entry = entries.find((e) => e.phoneNumber === number);
      return entry && { type: entry.type, source: entry.source, by: entry.createdByUserId };
    };
    expect(entries).toHaveLength(4);
    expect(shape(a)).toEqual({ type: 'customer_request', source: 'crm', by: org.userId });
    expect(shape(b)).toEqual({ type: null, source: null, by: org.userId });
    expect(shape(c)).toEqual({ type: 'opt_out', source: 'national, 2026', by: org.userId });
    // Already listed: left as it was.
    expect(shape(before)).toEqual({ type: 'legal', source: null, by: null });
    // As DNC add does: the pending call of a live batch is withdrawn, a finished batch's is not.
    const statuses = await db()
      .select({ id: callRecords.id, status: callRecords.status })
      .from(callRecords)
      .where(eq(callRecords.organizationId, org.organizationId));
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({
      [pendingB.id]: 'do_not_call',
      [finishedB.id]: 'pending',
    });
  });

  it('imports a JSON array of entries or bare numbers, with the same report', async () => {
    const org = await registerOrganization(t.http);
    const [a, b, c, d] = [nextNumber(), nextNumber(), nextNumber(), nextNumber()];
    const response = await uploadJson(org.token, [
      { phoneNumber: a, reason: 'asked on a call', source: 'web form' },
      Number(b.slice(1)),
      { PHONENUMBER: spaced(a) },
      { name: 'no number' },
      { phoneNumber: '12' },
      { phoneNumber: c, source: { nested: true } },
      `'${d}`,
      { phoneNumber: c, type: 'legal', _id: 'ignored', createdAt: 'ignored' },
    ]).expect(201);
    expect(response.body).toEqual({
      ...IMPORTED,
      data: {
        received: 8,
        imported: 4,
        alreadyListed: 1,
        rejected: 3,
        errorsTruncated: false,
        errors: [
          { row: 4, reason: 'missing_phone_number' },
          { row: 5, reason: 'invalid_number', phoneNumber: '12' },
          { row: 6, reason: 'invalid_field', phoneNumber: c, field: 'source' },
        ],
      },
    });
    const entries = await entriesOf(org.organizationId);
    expect(entries.map((e) => [e.phoneNumber, e.type, e.source])).toEqual(
      [
        [a, 'asked on a call', 'web form'],
        [b, null, null],
        [c, 'legal', null],
        [d, null, null],
      ].sort(),
    );

    // A .json name says JSON when the part's type says nothing.
    const generic = await upload(org.token, JSON.stringify([nextNumber()]), {
      type: 'application/octet-stream',
      name: 'LIST.JSON',
    }).expect(201);
    expect(generic.body.data).toMatchObject({ received: 1, imported: 1 });
  });

  it('is idempotent: the same file again adds nothing and reports every number as listed', async () => {
    const org = await registerOrganization(t.http);
    const numbers = [nextNumber(), nextNumber(), nextNumber()];
    const csv = `phoneNumber,type\n${numbers.map((n) => `${n},legal`).join('\n')}\n`;
    const first = await upload(org.token, csv).expect(201);
    expect(first.body.data).toMatchObject({ received: 3, imported: 3, alreadyListed: 0 });
    const ids = (await entriesOf(org.organizationId)).map((e) => e.id);
    const again = await upload(org.token, csv).expect(201);
    expect(again.body.data).toEqual({
      received: 3,
      imported: 0,
      alreadyListed: 3,
      rejected: 0,
      errors: [],
      errorsTruncated: false,
    });
    expect((await entriesOf(org.organizationId)).map((e) => e.id)).toEqual(ids);
  });

  it('keeps an imported number from being dialed: the batch calls everyone else', async () => {
    const h = await new DialerHarness(t, app!.twilio).organization();
    const callingNumbers = [(await h.number()).id, (await h.number()).id, (await h.number()).id];
    const { batch, numbers } = await h.batch(3, { callingNumbers });
    const [optedOut, ...others] = numbers;
    const imported = await upload(h.admin.token, `phoneNumber\n${optedOut}\n`).expect(201);
    expect(imported.body.data).toMatchObject({ imported: 1 });

    expect(await h.tick()).toMatchObject({ claimed: 2, placed: 2 });
    clock.advance(1);
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    expect(
      h
        .callsTo(numbers)
        .map((call) => call.to)
        .sort(),
    ).toEqual([...others].sort());
    const records = await h.records(batch.id);
    expect(records.find((r) => r.phoneNumber === optedOut)).toMatchObject({
      status: 'do_not_call',
      attempts: 0,
    });
  });

  it("waits for a claim in progress (the organization's dialing lock) before listing", async () => {
    const org = await registerOrganization(t.http);
    const number = nextNumber();
    const claim = await session();
    let importing: Promise<number> | undefined;
    try {
      // What a claim holds from its first read to its commit.
      await claim.query('BEGIN');
      await claim.query(
        "SELECT pg_advisory_xact_lock(hashtext('switchboard.dialer'), hashtext($1))",
        [org.organizationId],
      );
      importing = upload(org.token, `phoneNumber\n${number}\n`).then((r) => r.status);
      await waitFor(async () => (await waitingLocks(claim, 'advisory')) > 0, {
        what: 'the import waiting for the dialing lock',
      });
      expect(await listed(org.token, number)).toBe(false);
    } finally {
      await claim.query('ROLLBACK');
      await claim.end();
    }
    await expect(importing).resolves.toBe(201);
    expect(await listed(org.token, number)).toBe(true);
  });

  it('commits chunk by chunk: the first 1,000 numbers are listed while a later chunk still waits', async () => {
    const org = await registerOrganization(t.http);
    const numbers = Array.from({ length: 1_500 }, nextNumber);
    const blocker = await session();
    let importing: Promise<{ status: number; body: { data: unknown } }> | undefined;
    try {
      // An uncommitted entry for a number of the second chunk: that chunk's INSERT waits on it.
      await blocker.query('BEGIN');
      await blocker.query(
        'INSERT INTO dnc_entries (id, organization_id, phone_number) VALUES ($1, $2, $3)',
        [newObjectId(), org.organizationId, numbers[1_200]],
      );
      importing = upload(org.token, `phoneNumber\n${numbers.join('\n')}\n`).then((r) => r);
      await waitFor(async () => (await waitingLocks(blocker, 'transactionid')) > 0, {
        what: 'the second chunk waiting on the uncommitted entry',
      });
      // The first chunk has committed (and with it given the dialing lock back) ...
      expect(await listed(org.token, numbers[0])).toBe(true);
      expect(await listed(org.token, numbers[999])).toBe(true);
      // ... the second has not.
      expect(await listed(org.token, numbers[1_000])).toBe(false);
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    const done = await importing;
    expect(done.status).toBe(201);
    expect(done.body.data).toMatchObject({ received: 1_500, imported: 1_500, rejected: 0 });
  });

  it('exports the whole list as CSV and JSON, and each export imports back as it was', async () => {
    const org = await registerOrganization(t.http);
    const numbers = [nextNumber(), nextNumber(), nextNumber(), nextNumber()];
    await upload(
      org.token,
      [
        'phoneNumber,type,source',
        `${numbers[0]},legal,"crm, ""main"""`,
        `${numbers[1]},=HYPERLINK("x"),-1`,
        `${numbers[2]},,`,
      ].join('\n'),
    ).expect(201);
    // An entry DNC add made from a call: its links and transcript travel too.
    const batch = await calls.batch(org.organizationId, org.userId);
    await db().insert(dncEntries).values({
      organizationId: org.organizationId,
      phoneNumber: numbers[3],
      type: 'opt_out',
      batchId: batch.id,
      requestUuid: randomUUID(),
      transcript: 'Stop calling,\n"please".',
    });
    const stored = await entriesOf(org.organizationId);

    const csv = await exportList(org.token).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="dnc-list.csv"');
    expect(csv.text.split('\r\n')[0]).toBe(
      'phoneNumber,type,source,createdAt,_id,batchId,callRecordId,requestUUID,recordingUrl,transcript',
    );
    const rows = parse<Record<string, string>>(csv.text, { columns: true });
    expect(rows.sort((x, y) => x.phoneNumber.localeCompare(y.phoneNumber))).toEqual(
      stored.map((entry) => ({
        // Formula escaping: the import reads '+1… back.
        phoneNumber: `'${entry.phoneNumber}`,
        type: entry.type === '=HYPERLINK("x")' ? `'${entry.type}` : (entry.type ?? ''),
        source: entry.source === '-1' ? "'-1" : (entry.source ?? ''),
        createdAt: entry.createdAt.toISOString(),
        _id: entry.id,
        batchId: entry.batchId ?? '',
        callRecordId: '',
        requestUUID: entry.requestUuid ?? '',
        recordingUrl: '',
        transcript: entry.transcript ?? '',
      })),
    );

    const json = await exportList(org.token, 'json').expect(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.headers['content-disposition']).toBe('attachment; filename="dnc-list.json"');
    // The common envelope; data: the entries as the list shows them.
    const page = await t.http.get('/api/dnc').query({ limit: 100 }).set(bearer(org.token));
    const byNumber = (x: { phoneNumber: string }, y: { phoneNumber: string }) =>
      x.phoneNumber.localeCompare(y.phoneNumber);
    expect({ ...json.body, data: [...json.body.data].sort(byNumber) }).toEqual({
      message: 'Do-not-call list exported',
      status: true,
      code: 200,
      errorMessage: '',
      data: [...page.body.data.entries].sort(byNumber),
    });
    expect(json.body.data).toHaveLength(4);
    expect((json.body.data as { source: string | null }[]).map((e) => e.source).sort()).toEqual(
      ['-1', 'crm, "main"', null, null].sort(),
    );

    // Round trips: each export imported into an empty organization gives the same list.
    const triples = async (organizationId: string) =>
      (await entriesOf(organizationId)).map((e) => [e.phoneNumber, e.type, e.source]);
    const fromCsv = await registerOrganization(t.http);
    const csvBack = await upload(fromCsv.token, csv.text).expect(201);
    expect(csvBack.body.data).toMatchObject({ received: 4, imported: 4, rejected: 0 });
    const fromJson = await registerOrganization(t.http);
    const jsonBack = await upload(fromJson.token, json.text, {
      type: 'application/json',
      name: 'dnc-list.json',
    }).expect(201);
    expect(jsonBack.body.data).toMatchObject({ received: 4, imported: 4, rejected: 0 });
    expect(await triples(fromJson.organizationId)).toEqual(await triples(org.organizationId));
    // The CSV keeps what formula escaping added to type and source; the numbers are the same.
    expect((await triples(fromCsv.organizationId)).map(([number]) => number)).toEqual(
      numbers.slice().sort(),
    );

    // An empty list: a header, or [].
    const empty = await registerOrganization(t.http);
    expect((await exportList(empty.token).expect(200)).text).toBe(
      'phoneNumber,type,source,createdAt,_id,batchId,callRecordId,requestUUID,recordingUrl,transcript\r\n',
    );
    expect((await exportList(empty.token, 'json').expect(200)).body.data).toEqual([]);
  });

  it('looks a number up in any written form, with its entry on request', async () => {
    const org = await registerOrganization(t.http);
    const [number, absent] = [nextNumber(), nextNumber()];
    await upload(org.token, `phoneNumber,reason,source\n${number},asked,crm\n`).expect(201);
    const [entry] = await entriesOf(org.organizationId);
    const forms = [
      number,
      number.slice(1),
      spaced(number),
      `1-${number.slice(2, 5)}-${number.slice(5, 8)}-${number.slice(8)}`,
      `+1.${number.slice(2, 5)}.${number.slice(5, 8)}.${number.slice(8)}`,
    ];
    for (const form of forms) {
      // The existing answer, exactly.
      expect((await check(org.token, form).expect(200)).body).toEqual({
        message: 'Do-not-call status fetched',
        status: true,
        code: 200,
        errorMessage: '',
        data: { phoneNumber: number, onDncList: true, entryId: entry.id },
      });
      expect((await check(org.token, form, 'entry').expect(200)).body.data).toEqual({
        phoneNumber: number,
        onDncList: true,
        entryId: entry.id,
        entry: {
          _id: entry.id,
          phoneNumber: number,
          type: 'asked',
          source: 'crm',
          batchId: null,
          callRecordId: null,
          requestUUID: null,
          recordingUrl: null,
          transcript: null,
          createdAt: entry.createdAt.toISOString(),
        },
      });
    }
    // A `+` sent unencoded arrives as a space: still found.
    const raw = await t.http
      .get(`/api/dnc/check?phoneNumber=${number}&include=entry`)
      .set(bearer(org.token))
      .expect(200);
    expect(raw.body.data.entry._id).toBe(entry.id);

    expect((await check(org.token, absent, 'entry').expect(200)).body.data).toEqual({
      phoneNumber: absent,
      onDncList: false,
    });
    const other = await registerOrganization(t.http);
    expect((await check(other.token, number, 'entry').expect(200)).body.data).toEqual({
      phoneNumber: number,
      onDncList: false,
    });
    await check(org.token, number, 'everything').expect(400);
    await check(org.token, '12', 'entry').expect(400);
  });

  it('answers bad uploads with a 4xx in the envelope and changes nothing', async () => {
    const org = await registerOrganization(t.http);
    const valid = Array.from({ length: 1_500 }, nextNumber);
    const refused = async (
      sent: PromiseLike<{ status: number; body: Record<string, unknown> }>,
      status: number,
      message: RegExp,
    ) => {
      const { status: got, body } = await sent;
      expect({ got, body }).toEqual({
        got: status,
        body: {
          message: expect.any(String),
          status: false,
          code: status,
          errorMessage: expect.stringMatching(message),
        },
      });
      expect(JSON.stringify(body)).not.toMatch(/\bat \S+:\d+|SELECT|INSERT/);
    };
    const post = () => t.http.post('/api/dnc/import').set(bearer(org.token));

    await refused(post().send({ entries: [{ phoneNumber: valid[0] }] }), 415, /multipart/);
    await refused(post(), 415, /multipart/);
    await refused(post().field('note', 'no file'), 400, /file field named file/);
    await refused(upload(org.token, `phoneNumber\n${valid[0]}\n`, { field: 'list' }), 400, /file/);
    await refused(
      upload(org.token, 'GIF89a', { type: 'image/gif', name: 'x.gif' }),
      415,
      /CSV \(text\/csv\) or a JSON array/,
    );
    await refused(upload(org.token, ''), 400, /empty/);
    await refused(
      upload(org.token, '', { type: 'application/json', name: 'x.json' }),
      400,
      /empty/,
    );
    await refused(
      upload(org.token, `number,type\n${valid[0]},legal\n`),
      400,
      /must name a phoneNumber column \(found: "number", "type"\)/,
    );
    await refused(upload(org.token, 'phoneNumber,type\n\n'), 400, /no entries/);
    await refused(uploadJson(org.token, []), 400, /no entries/);
    await refused(
      upload(org.token, `phoneNumber,PHONENUMBER\n${valid[0]},${valid[1]}\n`),
      400,
      /names the column "PHONENUMBER" twice/,
    );
    await refused(
      uploadJson(org.token, { phoneNumber: valid[0] }),
      400,
      /must be an array of entries/,
    );
    // A fault near the end of a long file: refused before its first chunk is stored.
    await refused(
      upload(org.token, `phoneNumber\n${valid.join('\n')}\n"${valid[0]}\n`),
      400,
      /Malformed CSV near line \d+: a quoted cell is never closed/,
    );
    const json = JSON.stringify(valid.map((phoneNumber) => ({ phoneNumber })));
    await refused(
      upload(org.token, `${json.slice(0, -1)},{"phoneNumber": }]`, {
        type: 'application/json',
        name: 'x.json',
      }),
      400,
      /Malformed JSON: entry 1501 cannot be parsed/,
    );
    await refused(
      upload(org.token, `phoneNumber\n${valid[0]}\n`.padEnd(UPLOAD_MAX_BYTES + 1, '\n')),
      413,
      new RegExp(`${UPLOAD_MAX_BYTES}-byte upload limit`),
    );
    expect(await entryCount(org.organizationId)).toBe(0);

    // Exactly at the limit is fine.
    const exact = await upload(
      org.token,
      `phoneNumber\n${valid[0]}\n`.padEnd(UPLOAD_MAX_BYTES, '\n'),
    ).expect(201);
    expect(exact.body.data).toMatchObject({ received: 1, imported: 1 });
  });

  it('streams a multi-megabyte file through, and reports the first 1,000 invalid rows', async () => {
    const org = await registerOrganization(t.http);
    const rows = 60_000;
    const lines = ['phoneNumber,type,source'];
    const invalidRows: number[] = [];
    for (let row = 1; row <= rows; row += 1) {
      if (row % 50 === 0) {
        invalidRows.push(row);
        lines.push(`12${row},bulk,national-registry-2026-12`);
      } else {
        lines.push(`${nextNumber()},do_not_call_request,national-registry-2026-12`);
      }
    }
    const csv = `${lines.join('\n')}\n`;
    expect(Buffer.byteLength(csv)).toBeGreaterThan(3 * 1024 * 1024);

    const { body } = await upload(org.token, csv).expect(201);
    const valid = rows - invalidRows.length;
    expect(body.data).toMatchObject({
      received: rows,
      imported: valid,
      alreadyListed: 0,
      rejected: invalidRows.length,
      errorsTruncated: true,
    });
    expect(body.data.errors).toHaveLength(1_000);
    expect(body.data.errors[0]).toEqual({
      row: 50,
      reason: 'invalid_number',
      phoneNumber: '1250',
    });
    expect(body.data.errors[999].row).toBe(invalidRows[999]);
    expect(await entryCount(org.organizationId)).toBe(valid);

    // The export pages through all of it (chunks share a created_at: the id breaks the tie).
    const exported = await exportList(org.token).expect(200);
    const numbers = parse<{ phoneNumber: string }>(exported.text, { columns: true }).map(
      (row) => row.phoneNumber,
    );
    expect(numbers).toHaveLength(valid);
    expect(new Set(numbers).size).toBe(valid);
  });

  it('requires the dnc permission and keeps each organization to its own list', async () => {
    const org = await registerOrganization(t.http);
    const other = await registerOrganization(t.http);
    const member = await createMember(t.http, org.token, ['calls']);
    const dncMember = await createMember(t.http, org.token, ['dnc']);
    const number = nextNumber();
    const csv = `phoneNumber\n${number}\n`;
    await upload(member.token, csv).expect(403);
    await exportList(member.token).expect(403);
    await exportList(member.token, 'json').expect(403);
    expect(await entryCount(org.organizationId)).toBe(0);

    await upload(dncMember.token, csv).expect(201);
    expect((await exportList(dncMember.token, 'json').expect(200)).body.data).toHaveLength(1);
    expect((await exportList(other.token, 'json').expect(200)).body.data).toEqual([]);
    expect(await listed(other.token, number)).toBe(false);
    await t.http.post('/api/dnc/import').attach('file', Buffer.from(csv), 'dnc.csv').expect(401);
    await t.http.get('/api/dnc/export/csv').expect(401);
    await t.http.get('/api/dnc/export/json').expect(401);
  });
});

describe('DNC import and export on embedded PGlite', () => {
  let dataDir: string;
  let pglite: NestExpressApplication;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-dnc-import-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
    pglite = await createApp(config, { logger: false });
    await pglite.init();
  });
  afterAll(async () => {
    await pglite.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('speaks the same SQL: imports in chunks under the dialing lock and exports it back', async () => {
    const http = request(pglite.getHttpServer());
    const org = await registerOrganization(http);
    const numbers = Array.from({ length: 1_200 }, nextNumber);
    const csv = `phoneNumber,type,source\n${numbers.map((n) => `${n},legal,crm`).join('\n')}\n`;
    const imported = await http
      .post('/api/dnc/import')
      .set(bearer(org.token))
      .attach('file', Buffer.from(csv), { filename: 'dnc.csv', contentType: 'text/csv' })
      .expect(201);
    expect(imported.body.data).toMatchObject({ received: 1_200, imported: 1_200, rejected: 0 });
    const exported = await http.get('/api/dnc/export/json').set(bearer(org.token)).expect(200);
    expect(
      (exported.body.data as { phoneNumber: string }[]).map((e) => e.phoneNumber).sort(),
    ).toEqual(numbers.slice().sort());
    const found = await http
      .get('/api/dnc/check')
      .query({ phoneNumber: spaced(numbers[0]), include: 'entry' })
      .set(bearer(org.token))
      .expect(200);
    expect(found.body.data.entry).toMatchObject({ type: 'legal', source: 'crm' });
  });
});
