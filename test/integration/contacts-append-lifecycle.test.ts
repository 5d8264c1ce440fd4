import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../src/database';
import { BatchesRepository } from '../../src/modules/batches/batches.repository';
import { ContactsImportService } from '../../src/modules/contacts/contacts-import.service';
import type { TwilioFake } from '../fakes';
import { completeDialingBatches, type DialerApp, startDialerApp } from '../support/dialer-app';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * Appending contacts to a batch after it completed: the batch reopens and the dialer calls the
 * new records; a cancelled batch refuses (409); a paused one stays paused. Ticks on a moved
 * clock, attempts ended as a final callback would (DialerHarness.end).
 */
jest.setTimeout(60_000);

/** A valid NANP number (exchange 2xx-8xx), random enough for one test file. */
const newNumber = () => `+1212${2_000_000 + randomInt(6_000_000)}`;

describe('appending contacts to a finished batch', () => {
  let t: TestApp;
  let twilio: TwilioFake;
  const clock = new TestClock();

  let app: DialerApp | undefined;

  beforeAll(async () => {
    app = await startDialerApp();
    ({ t, twilio } = app);
    clock.install(t);
  });

  afterAll(() => app?.close());

  afterEach(() => completeDialingBatches(t));

  const harness = () => new DialerHarness(t, twilio).organization();
  const auth = (h: DialerHarness) => ({ Authorization: `Bearer ${h.admin.token}` });
  const url = (batchId: string) => `/api/call/batches/${batchId}/contacts`;
  const appendJson = (h: DialerHarness, batchId: string, contacts: unknown[]) =>
    t.http.post(url(batchId)).set(auth(h)).send({ contacts });
  const appendCsv = (h: DialerHarness, batchId: string, numbers: string[]) =>
    t.http
      .post(url(batchId))
      .set(auth(h))
      .attach(
        'file',
        Buffer.from(`phoneNumber,name\n${numbers.map((n) => `${n},Kim`).join('\n')}\n`),
        {
          filename: 'more.csv',
          contentType: 'text/csv',
        },
      );

  /** A batch whose one contact was called and completed: queue_status completed on its own. */
  async function completedBatch(h: DialerHarness) {
    const { batch, numbers } = await h.batch(1);
    expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
    await h.endAll(batch.id, 'completed');
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    expect(await h.batchRow(batch.id)).toMatchObject({
      queueStatus: 'completed',
      statusReason: null,
      totalCalls: 1,
    });
    // Later: the batch's number is free again (pacing).
    clock.advance(60);
    return { batch, numbers };
  }

  /** The batch status as batch-details shows it. */
  async function shownStatus(h: DialerHarness, batchId: string) {
    const details = await t.http.get(`/api/call/batch-details/${batchId}`).set(auth(h)).expect(200);
    return details.body.data.batchStatus as string;
  }

  /** Ticks (a second apart: one calling number, paced) until each number was called once. */
  async function dialAll(h: DialerHarness, numbers: string[]) {
    for (let ticks = 0; ticks < numbers.length + 2; ticks += 1) {
      if (h.callsTo(numbers).length >= numbers.length) break;
      await h.tick();
      clock.advance(1);
    }
    expect(
      h
        .callsTo(numbers)
        .map((call) => call.to)
        .sort(),
    ).toEqual([...numbers].sort());
  }

  /** Dials what the append added, ends it, and checks that the batch completes again. */
  async function dialsAndCompletesAgain(h: DialerHarness, batchId: string, added: string[]) {
    await dialAll(h, added);
    const placed = (await h.logs(batchId)).filter((log) => log.providerCallId !== null);
    expect(placed).toHaveLength(1 + added.length);
    await h.endAll(batchId, 'completed');
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    expect(await h.batchRow(batchId)).toMatchObject({
      queueStatus: 'completed',
      statusReason: null,
      callsCompleted: 1 + added.length,
      totalCalls: 1 + added.length,
    });
    expect(h.callsTo(added)).toHaveLength(added.length);
  }

  it('a JSON append reopens a batch that completed on its own; the new contact is dialed, then it completes again', async () => {
    const h = await harness();
    const { batch, numbers } = await completedBatch(h);
    const added = newNumber();
    const response = await appendJson(h, batch.id, [{ phoneNumber: added, name: 'Lee' }]).expect(
      201,
    );
    expect(response.body.data).toMatchObject({ received: 1, imported: 1, rejected: 0 });
    expect(await h.batchRow(batch.id)).toMatchObject({
      queueStatus: 'active',
      statusReason: null,
      totalCalls: 2,
    });
    expect(await shownStatus(h, batch.id)).toBe('active');
    await dialsAndCompletesAgain(h, batch.id, [added]);
    // The first contact is not called again.
    expect(h.callsTo(numbers)).toHaveLength(1);
  });

  it('a CSV upload reopens a batch that completed on its own; the new contacts are dialed', async () => {
    const h = await harness();
    const { batch } = await completedBatch(h);
    const added = [newNumber(), newNumber()];
    const response = await appendCsv(h, batch.id, added).expect(201);
    expect(response.body.data).toMatchObject({ received: 2, imported: 2, rejected: 0 });
    expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'active', statusReason: null });
    await dialsAndCompletesAgain(h, batch.id, added);
  });

  it('a cancelled batch answers 409 to both kinds of append and stores nothing', async () => {
    const h = await harness();
    const { batch } = await h.batch(2);
    await t.http.post(`/api/call/batches/${batch.id}/cancel`).set(auth(h)).expect(200);
    const before = await h.batchRow(batch.id);
    const json = await appendJson(h, batch.id, [{ phoneNumber: newNumber() }]).expect(409);
    expect(json.body).toEqual({
      message: 'Conflict',
      status: false,
      code: 409,
      errorMessage: 'A cancelled batch takes no more contacts: create a new batch for them',
    });
    const csv = await appendCsv(h, batch.id, [newNumber()]).expect(409);
    expect(csv.body).toMatchObject({ status: false, code: 409 });
    expect(await h.records(batch.id)).toHaveLength(2);
    expect(await h.batchRow(batch.id)).toMatchObject({
      queueStatus: 'completed',
      statusReason: 'cancelled',
      totalCalls: 2,
      updatedAt: before.updatedAt,
    });
    expect(await h.tick()).toMatchObject({ claimed: 0 });
  });

  it('reopens only a batch that completed on its own: a paused one stays paused, its records wait for the resume', async () => {
    const h = await harness();
    const { batch: completed } = await completedBatch(h);
    const { batch: paused } = await h.batch(1);
    await t.http.post(`/api/call/batches/${paused.id}/pause`).set(auth(h)).expect(200);
    const waiting = [newNumber(), newNumber()];
    await appendJson(h, paused.id, [{ phoneNumber: waiting[0] }]).expect(201);
    await appendCsv(h, paused.id, [waiting[1]]).expect(201);
    const reopening = newNumber();
    await appendJson(h, completed.id, [{ phoneNumber: reopening }]).expect(201);
    expect(await h.batchRow(paused.id)).toMatchObject({
      queueStatus: 'paused',
      statusReason: null,
      totalCalls: 3,
    });
    expect(await shownStatus(h, paused.id)).toBe('paused');
    expect(await h.batchRow(completed.id)).toMatchObject({ queueStatus: 'active' });
    // Only the reopened batch dials.
    expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
    expect(h.callsTo([reopening])).toHaveLength(1);
    expect(h.callsTo(waiting)).toHaveLength(0);
    await t.http.post(`/api/call/batches/${paused.id}/resume`).set(auth(h)).expect(200);
    await dialAll(h, waiting);
  });

  it('an append whose every row is rejected leaves a completed batch completed', async () => {
    const h = await harness();
    const { batch, numbers } = await completedBatch(h);
    const listed = newNumber();
    await h.addDnc(listed);
    const json = await appendJson(h, batch.id, [
      { phoneNumber: 'not a number' },
      { phoneNumber: numbers[0] },
      { phoneNumber: listed },
    ]).expect(201);
    expect(json.body.data).toMatchObject({ received: 3, imported: 0, rejected: 3 });
    const csv = await appendCsv(h, batch.id, [numbers[0], listed]).expect(201);
    expect(csv.body.data).toMatchObject({ received: 2, imported: 0, rejected: 2 });
    expect(await h.batchRow(batch.id)).toMatchObject({
      queueStatus: 'completed',
      statusReason: null,
      totalCalls: 1,
    });
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    // The same batch does reopen once a row is accepted.
    await appendJson(h, batch.id, [{ phoneNumber: listed }, { phoneNumber: newNumber() }]).expect(
      201,
    );
    expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'active', totalCalls: 2 });
  });

  describe('racing the completion of the batch', () => {
    const database = () => t.app.get(Database);
    /** Some session of this test's database waits for a lock (a row another one holds). */
    const someoneWaits = async () => {
      const result = await database().db.execute(sql`
        SELECT count(*)::int AS waiting FROM pg_locks l
        JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE NOT l.granted AND a.datname = current_database()`);
      return rowsOf<{ waiting: number }>(result)[0].waiting > 0;
    };
    const opened = () => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      return { gate, open };
    };

    /** An active batch whose only record is done: the next BatchesRepository.completeIfDone completes it. */
    async function doneButActive(h: DialerHarness) {
      const { batch } = await h.batch(0);
      await h.calling.callRecords(batch, [{ phoneNumber: newNumber() }], { status: 'completed' });
      return batch;
    }

    it('an append that waited for a completion in progress reopens the batch', async () => {
      const h = await harness();
      const batch = await doneButActive(h);
      const { gate, open } = opened();
      let completed: boolean | undefined;
      const completion = database().transaction(async () => {
        completed = await t.app
          .get(BatchesRepository)
          .completeIfDone(h.admin.organizationId, batch.id);
        await gate;
      });
      await waitFor(() => completed !== undefined, { what: 'the completion' });
      expect(completed).toBe(true);
      const added = newNumber();
      const append = appendJson(h, batch.id, [{ phoneNumber: added }]).then((r) => r);
      await waitFor(someoneWaits, { what: 'the append to wait for the batch row' });
      open();
      await completion;
      expect((await append).status).toBe(201);
      expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'active' });
      expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
      expect(h.callsTo([added])).toHaveLength(1);
    });

    it('a completion that waited for an append in progress sees its records and does not complete', async () => {
      const h = await harness();
      const batch = await doneButActive(h);
      const { gate, open } = opened();
      let imported: number | undefined;
      const added = newNumber();
      // The append's chunk commits with this transaction, held open until the completion waits.
      const append = database().transaction(async () => {
        const report = await t.app
          .get(ContactsImportService)
          .importRows(h.admin.organizationId, batch.id, [{ phoneNumber: added }]);
        imported = report.imported;
        await gate;
      });
      await waitFor(() => imported !== undefined, { what: 'the append' });
      expect(imported).toBe(1);
      const completion = database().transaction(() =>
        t.app.get(BatchesRepository).completeIfDone(h.admin.organizationId, batch.id),
      );
      await waitFor(someoneWaits, { what: 'the completion to wait for the batch row' });
      open();
      await append;
      expect(await completion).toBe(false);
      expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'active', totalCalls: 2 });
      expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
      expect(h.callsTo([added])).toHaveLength(1);
    });

    it('an append that waited for a cancel in progress answers 409 and stores nothing', async () => {
      const h = await harness();
      const { batch } = await h.batch(1);
      const { gate, open } = opened();
      let cancelled = false;
      // The cancel commits with this transaction, after the append passed its first check.
      const cancel = database().transaction(async () => {
        await t.app.get(BatchesRepository).cancel(h.admin.organizationId, batch.id);
        cancelled = true;
        await gate;
      });
      await waitFor(() => cancelled, { what: 'the cancel' });
      const append = appendJson(h, batch.id, [{ phoneNumber: newNumber() }]).then((r) => r);
      await waitFor(someoneWaits, { what: 'the append to wait for the batch row' });
      open();
      await cancel;
      const response = await append;
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ status: false, code: 409 });
      expect((await h.records(batch.id)).map((record) => record.status)).toEqual(['canceled']);
      expect(await h.batchRow(batch.id)).toMatchObject({
        queueStatus: 'completed',
        statusReason: 'cancelled',
        totalCalls: 1,
      });
    });
  });
});
