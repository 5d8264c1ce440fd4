import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { Client } from 'pg';
import { Database } from '../../src/database';
import type { BatchRow } from '../../src/modules/batches/batches.schema';
import { callRecords } from '../../src/modules/call-records/call-records.schema';
import { dncEntries } from '../../src/modules/dnc/dnc.schema';
import { CallingFactories } from '../support/calling-factories';
import {
  createApiKey,
  createMember,
  registerOrganization,
  type RegisteredAdmin,
} from '../support/factories';
import { LogCapture } from '../support/log-capture';
import { TestSmtpServer } from '../support/smtp-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

const SUBJECT = 'Number added to the do-not-call list';
const ADDED = { message: SUBJECT, status: true, code: 200, errorMessage: '' };

let sequence = 1000;
const nextNumber = () => `+1650555${(sequence += 1)}`;
const masked = (e164: string) => `${e164.slice(0, 5)}***${e164.slice(-4)}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('do-not-call list', () => {
  const logs = new LogCapture();
  let smtp: TestSmtpServer;
  let t: TestApp;
  let calls: CallingFactories;
  let admin: RegisteredAdmin;
  let secondAdmin: { email: string };
  let plainMember: { token: string; email: string };
  let dncMember: { token: string; email: string; userId: string };
  let other: RegisteredAdmin;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    t = await startTestApp({
      logStream: logs,
      env: { LOG_LEVEL: 'info', SMTP_URL: smtp.url, MAIL_FROM: 'Switchboard <dnc@example.com>' },
    });
    calls = new CallingFactories(t);
    admin = await registerOrganization(t.http, { name: 'Ada Admin' });
    secondAdmin = { email: `second-admin-${randomUUID().slice(0, 8)}@example.com` };
    await t.http
      .post('/api/users')
      .set(bearer(admin.token))
      .send({ ...secondAdmin, name: 'Bo Admin', password: 'second admin pw', role: 'admin' })
      .expect(201);
    plainMember = await createMember(t.http, admin.token, ['calls']);
    dncMember = await createMember(t.http, admin.token, ['dnc']);
    other = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const db = () => t.app.get(Database).db;

  /** A batch of the organization with one called contact: its phone log has a recording. */
  async function calledContact(
    owner: RegisteredAdmin = admin,
    number = nextNumber(),
    batchOverrides: Partial<BatchRow> = {},
  ) {
    const batch = await calls.batch(owner.organizationId, owner.userId, batchOverrides);
    const [record] = await calls.callRecords(batch, [{ phoneNumber: number, name: 'Jane' }]);
    const log = await calls.phoneLog(record, {
      recordingUrl: `https://recordings.example.com/${record.id}.mp3`,
      transcript: 'Please never call me again.',
    });
    return { batch, record, log, number };
  }

  const add = (body: object, auth: Record<string, string> = bearer(admin.token)) =>
    t.http.post('/api/dnc/add').set(auth).send(body);
  const bodyFor = (c: Awaited<ReturnType<typeof calledContact>>, type?: string) => ({
    phoneNumber: c.number,
    batchId: c.batch.id,
    requestUUID: c.log.requestUuid,
    ...(type ? { type } : {}),
  });
  const check = (number: string, token = admin.token) =>
    t.http.get('/api/dnc/check').query({ phoneNumber: number }).set(bearer(token));
  const statusOf = async (ids: string[]) =>
    Object.fromEntries(
      (
        await db()
          .select({ id: callRecords.id, status: callRecords.status })
          .from(callRecords)
          .where(inArray(callRecords.id, ids))
      ).map((row) => [row.id, row.status]),
    );

  it('adds the number of a call, stores its recording, and e-mails every admin', async () => {
    const contact = await calledContact();
    const response = await add(bodyFor(contact, 'customer_request')).expect(200);
    expect(response.body).toEqual(ADDED);

    const [entry] = await db()
      .select()
      .from(dncEntries)
      .where(eq(dncEntries.phoneNumber, contact.number));
    expect(entry).toMatchObject({
      organizationId: admin.organizationId,
      batchId: contact.batch.id,
      callRecordId: contact.record.id,
      phoneLogId: contact.log.id,
      requestUuid: contact.log.requestUuid,
      recordingUrl: contact.log.recordingUrl,
      transcript: 'Please never call me again.',
      createdByUserId: admin.userId,
      type: 'customer_request',
    });

    const mail = await waitFor(
      () => smtp.messages.find((m) => m.text.includes(masked(contact.number))),
      { what: 'the DNC e-mail' },
    );
    expect(mail.subject).toBe(SUBJECT);
    expect(mail.headers.from).toContain('dnc@example.com');
    expect(mail.envelope.to.sort()).toEqual([admin.email, secondAdmin.email].sort());
    for (const email of [admin.email, secondAdmin.email]) expect(mail.headers.to).toContain(email);
    for (const email of [plainMember.email, dncMember.email, other.email]) {
      expect(mail.headers.to).not.toContain(email);
    }
    expect(mail.text).toContain(contact.batch.batchName);
    expect(mail.text).toContain('customer_request');
    expect(mail.text).toContain(`Ada Admin <${admin.email}>`);
    expect(mail.text).toContain(entry.createdAt.toISOString());
    expect(mail.raw).not.toContain(contact.number.slice(1));
  });

  it('accepts the number in any written form and answers 400 for a listed one', async () => {
    const contact = await calledContact();
    const spaced = `${contact.number.slice(1, 2)} (${contact.number.slice(2, 5)}) ${contact.number.slice(5)}`;
    await add({ ...bodyFor(contact), phoneNumber: spaced }).expect(200);
    const duplicate = await add(bodyFor(contact)).expect(400);
    expect(duplicate.body).toMatchObject({ status: false, code: 400 });
    expect(duplicate.body.errorMessage).toMatch(/already/i);

    // The same number reached through another batch's call is still a duplicate.
    const again = await calledContact(admin, contact.number);
    await add(bodyFor(again)).expect(400);
  });

  it('lists a number once when two requests race for it', async () => {
    const first = await calledContact();
    const second = await calledContact(admin, first.number);
    const responses = await Promise.all([add(bodyFor(first)), add(bodyFor(second))]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400]);
    const rows = await db()
      .select({ id: dncEntries.id })
      .from(dncEntries)
      .where(eq(dncEntries.phoneNumber, first.number));
    expect(rows).toHaveLength(1);
  });

  it('waits for a claim of the organization in progress (its dialing lock): no claim dials on a list older than it', async () => {
    const contact = await calledContact();
    // What a claim holds from its first read to its commit.
    const claim = new Client({ connectionString: t.database.url });
    await claim.connect();
    const waiting = async () =>
      Number(
        (
          await claim.query<{ n: string }>(
            "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted " +
              'AND database = (SELECT oid FROM pg_database WHERE datname = current_database())',
          )
        ).rows[0].n,
      );
    let adding: Promise<unknown> | undefined;
    try {
      await claim.query('BEGIN');
      await claim.query(
        "SELECT pg_advisory_xact_lock(hashtext('switchboard.dialer'), hashtext($1))",
        [admin.organizationId],
      );
      adding = add(bodyFor(contact)).then((response) => response.status);
      await waitFor(async () => (await waiting()) > 0, { what: 'the add waiting for the lock' });
      expect(await check(contact.number).then((r) => r.body.data.onDncList)).toBe(false);
    } finally {
      await claim.query('ROLLBACK');
      await claim.end();
    }
    await expect(adding).resolves.toBe(200);
    expect(await check(contact.number).then((r) => r.body.data.onDncList)).toBe(true);
  });

  it('answers 400 with field errors for missing or malformed fields', async () => {
    const missing = await add({}).expect(400);
    const fields = (missing.body.errors as { field: string }[]).map((error) => error.field);
    expect(new Set(fields)).toEqual(new Set(['phoneNumber', 'batchId', 'requestUUID']));

    const contact = await calledContact();
    const malformedBatch = await add({ ...bodyFor(contact), batchId: 'not-an-id' }).expect(400);
    expect(malformedBatch.body.errors).toEqual([
      { field: 'batchId', message: expect.stringMatching(/batchId/) },
    ]);
    await add({ ...bodyFor(contact), requestUUID: 'nope' }).expect(400);
    await add({ ...bodyFor(contact), phoneNumber: '12' }).expect(400);
    await add({ ...bodyFor(contact), extra: true }).expect(400);
    const mismatch = await add({ ...bodyFor(contact), phoneNumber: nextNumber() }).expect(400);
    expect(mismatch.body.errorMessage).toMatch(/does not match/);
    expect((await check(contact.number).expect(200)).body.data.onDncList).toBe(false);
  });

  it('answers 404 for an unknown, foreign or deleted batch and for a call of another batch', async () => {
    const contact = await calledContact();
    const foreign = await calledContact(other);
    const deleted = await calledContact(admin, nextNumber(), { isDeleted: true });
    const sibling = await calledContact();

    const unknown = await add({ ...bodyFor(contact), batchId: '0123456789abcdef01234567' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: false, code: 404 });
    await add(bodyFor(foreign)).expect(404);
    await add(bodyFor(deleted)).expect(404);
    // The call exists, but in another batch of the organization.
    await add({ ...bodyFor(contact), requestUUID: sibling.log.requestUuid }).expect(404);
    await add({ ...bodyFor(contact), requestUUID: randomUUID() }).expect(404);
    await add({ ...bodyFor(contact), requestUUID: foreign.log.requestUuid }).expect(404);
    expect((await check(contact.number).expect(200)).body.data.onDncList).toBe(false);
  });

  it('withdraws the pending calls of the number from active and paused batches only', async () => {
    const contact = await calledContact();
    const number = contact.number;
    const pendingIn = async (owner: RegisteredAdmin, overrides: Partial<BatchRow> = {}) => {
      const batch = await calls.batch(owner.organizationId, owner.userId, overrides);
      return (await calls.callRecords(batch, [{ phoneNumber: number }]))[0];
    };
    const active = await pendingIn(admin);
    const paused = await pendingIn(admin, { queueStatus: 'paused' });
    const finished = await pendingIn(admin, { queueStatus: 'completed' });
    const deleted = await pendingIn(admin, { isDeleted: true });
    const foreign = await pendingIn(other);
    const doneBatch = await calls.batch(admin.organizationId, admin.userId);
    const [done, neighbour] = await calls.callRecords(doneBatch, [
      { phoneNumber: number },
      { phoneNumber: nextNumber() },
    ]);
    await db().update(callRecords).set({ status: 'completed' }).where(eq(callRecords.id, done.id));

    await add(bodyFor(contact)).expect(200);

    expect(
      await statusOf([
        contact.record.id,
        active.id,
        paused.id,
        finished.id,
        deleted.id,
        foreign.id,
        done.id,
        neighbour.id,
      ]),
    ).toEqual({
      [contact.record.id]: 'do_not_call',
      [active.id]: 'do_not_call',
      [paused.id]: 'do_not_call',
      [finished.id]: 'pending',
      [deleted.id]: 'pending',
      [foreign.id]: 'pending',
      [done.id]: 'completed',
      [neighbour.id]: 'pending',
    });
  });

  it('lists entries newest first, paginated and searchable by digits or type', async () => {
    const lister = await registerOrganization(t.http);
    const types = ['Customer_Request', 'legal', undefined];
    const added: string[] = [];
    for (const type of types) {
      const contact = await calledContact(lister);
      await add(bodyFor(contact, type), bearer(lister.token)).expect(200);
      added.push(contact.number);
    }
    const list = (query: object) =>
      t.http.get('/api/dnc').query(query).set(bearer(lister.token)).expect(200);

    const all = await list({});
    expect(all.body).toMatchObject({ message: expect.any(String), status: true, code: 200 });
    expect(all.body.errorMessage).toBe('');
    expect(all.body.data.pagination).toEqual({ total: 3, page: 1, limit: 10, totalPages: 1 });
    expect(all.body.data.entries.map((e: { phoneNumber: string }) => e.phoneNumber)).toEqual(
      [...added].reverse(),
    );
    const [newest] = all.body.data.entries;
    expect(Object.keys(newest).sort()).toEqual(
      [
        '_id',
        'phoneNumber',
        'type',
        'source',
        'batchId',
        'callRecordId',
        'requestUUID',
        'recordingUrl',
        'transcript',
        'createdAt',
      ].sort(),
    );
    expect(newest.type).toBeNull();
    expect(newest.source).toBeNull();
    expect(newest.transcript).toBe('Please never call me again.');

    const second = await list({ page: 2, limit: 2 });
    expect(second.body.data.pagination).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2 });
    expect(second.body.data.entries.map((e: { phoneNumber: string }) => e.phoneNumber)).toEqual([
      added[0],
    ]);

    const byDigits = await list({ search: `(${added[1].slice(2, 5)}) ${added[1].slice(5)}` });
    expect(byDigits.body.data.entries.map((e: { phoneNumber: string }) => e.phoneNumber)).toEqual([
      added[1],
    ]);
    const byType = await list({ search: 'customer_' });
    expect(byType.body.data.entries.map((e: { type: string }) => e.type)).toEqual([
      'Customer_Request',
    ]);
    expect((await list({ search: '%' })).body.data.pagination.total).toBe(0);

    for (const query of [{ limit: 101 }, { limit: 0 }, { page: 0 }, { page: 'x' }]) {
      await t.http.get('/api/dnc').query(query).set(bearer(lister.token)).expect(400);
    }
  });

  it('checks, removes, and lets a removed number be listed again', async () => {
    const contact = await calledContact();
    await add(bodyFor(contact)).expect(200);

    const listed = await check(contact.number.slice(1)).expect(200);
    expect(listed.body).toMatchObject({ status: true, code: 200, errorMessage: '' });
    expect(listed.body.data).toEqual({
      phoneNumber: contact.number,
      onDncList: true,
      entryId: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
    const entryId = listed.body.data.entryId as string;
    expect((await check(contact.number).expect(200)).body.data.entryId).toBe(entryId);

    const removed = await t.http.delete(`/api/dnc/${entryId}`).set(bearer(admin.token)).expect(200);
    expect(removed.body).toEqual({
      message: 'Number removed from the do-not-call list',
      status: true,
      code: 200,
      errorMessage: '',
    });
    expect((await check(contact.number).expect(200)).body.data).toEqual({
      phoneNumber: contact.number,
      onDncList: false,
    });
    // Removal affects future imports only: the withdrawn call stays withdrawn.
    expect(await statusOf([contact.record.id])).toEqual({ [contact.record.id]: 'do_not_call' });

    await t.http.delete(`/api/dnc/${entryId}`).set(bearer(admin.token)).expect(404);
    await t.http.delete('/api/dnc/not-an-id').set(bearer(admin.token)).expect(400);
    await add(bodyFor(contact)).expect(200);
  });

  it('answers 400 when checking an invalid or missing number', async () => {
    for (const number of ['12', 'abc', '+1 650 555', '+999123456789']) {
      const response = await check(number).expect(400);
      expect(response.body).toMatchObject({ status: false, code: 400 });
    }
    await t.http.get('/api/dnc/check').set(bearer(admin.token)).expect(400);
  });

  it("never shows or touches another organization's entries", async () => {
    const contact = await calledContact();
    await add(bodyFor(contact)).expect(200);
    const entryId = (await check(contact.number).expect(200)).body.data.entryId as string;

    await t.http.delete(`/api/dnc/${entryId}`).set(bearer(other.token)).expect(404);
    const foreignList = await t.http.get('/api/dnc').set(bearer(other.token)).expect(200);
    expect(foreignList.body.data).toEqual({
      entries: [],
      pagination: { total: 0, page: 1, limit: 10, totalPages: 0 },
    });
    expect((await check(contact.number, other.token).expect(200)).body.data.onDncList).toBe(false);
    await add(bodyFor(await calledContact()), bearer(other.token)).expect(404);
    expect((await check(contact.number).expect(200)).body.data.entryId).toBe(entryId);
  });

  it('requires the dnc permission; an API key acts as admin', async () => {
    const contact = await calledContact();
    const denied = [
      add(bodyFor(contact), bearer(plainMember.token)),
      t.http.get('/api/dnc').set(bearer(plainMember.token)),
      check(contact.number, plainMember.token),
      t.http.delete('/api/dnc/0123456789abcdef01234567').set(bearer(plainMember.token)),
    ];
    for (const response of await Promise.all(denied)) expect(response.status).toBe(403);
    expect((await check(contact.number).expect(200)).body.data.onDncList).toBe(false);

    // A member adds the calls of their own batches (see batch-access.test.ts).
    await add(bodyFor(contact), bearer(dncMember.token)).expect(404);
    const own = await calledContact({ ...admin, userId: dncMember.userId });
    await add(bodyFor(own), bearer(dncMember.token)).expect(200);
    await t.http.get('/api/dnc').set(bearer(dncMember.token)).expect(200);
    const entryId = (await check(own.number, dncMember.token).expect(200)).body.data.entryId;
    await t.http.delete(`/api/dnc/${entryId}`).set(bearer(dncMember.token)).expect(200);

    const { key } = await createApiKey(t.http, admin.token);
    const viaKey = await calledContact();
    expect((await add(bodyFor(viaKey), { 'x-api-key': key }).expect(200)).body).toEqual(ADDED);
    const mail = await waitFor(
      () => smtp.messages.find((m) => m.text.includes(masked(viaKey.number))),
      { what: 'the DNC e-mail of the API key' },
    );
    expect(mail.text).toContain('through an API key');
    await t.http.get('/api/dnc').set({ 'x-api-key': key }).expect(200);
  });

  it('answers 200 when the mail server refuses the message, and logs no address or number', async () => {
    const contact = await calledContact();
    smtp.rejectRecipients = true;
    try {
      await add(bodyFor(contact)).expect(200);
      const failure = await waitFor(
        () => logs.lines.find((line) => line.msg === 'notification failed'),
        { what: 'the failure log line' },
      );
      expect(failure).toMatchObject({ subject: SUBJECT, reason: expect.stringMatching(/550/) });
    } finally {
      smtp.rejectRecipients = false;
    }
    for (const secret of [
      contact.number,
      contact.number.slice(1),
      admin.email,
      secondAdmin.email,
    ]) {
      expect(logs.text).not.toContain(secret);
    }
    expect((await check(contact.number).expect(200)).body.data.onDncList).toBe(true);
  });
});
