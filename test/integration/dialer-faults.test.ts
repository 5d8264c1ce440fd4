import { sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../src/database';
import { BatchesRepository } from '../../src/modules/batches/batches.repository';
import { AttemptEndings } from '../../src/modules/dialer/attempt-endings';
import { AttemptRecovery } from '../../src/modules/dialer/attempt-recovery';
import { AttemptsRepository } from '../../src/modules/dialer/attempts.repository';
import { CallPlacement } from '../../src/modules/dialer/call-placement';
import type { TwilioFake } from '../fakes';
import { completeDialingBatches, type DialerApp, startDialerApp } from '../support/dialer-app';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import type { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * The dialer when the provider fails (issue #28, findings 7, 8 and 10), one tick at a time on a
 * moved clock against the Twilio fake: refusals that prove nothing was placed spend no attempt,
 * recovery always ends, and a call's events stay in order. The timer-driven cases (claims that
 * wait for a provider slot, one provider hanging) are in dialer-outage.test.ts.
 */
jest.setTimeout(60_000);

describe('dialer under provider faults', () => {
  let t: TestApp;
  let twilio: TwilioFake;
  const clock = new TestClock();
  let app: DialerApp | undefined;
  /** Past a placed call's lease: ring 45 + the agent's 300 + 120 s. */
  const placedLease = 45 + 300 + 120 + 1;

  beforeAll(async () => {
    app = await startDialerApp();
    ({ t, twilio } = app);
    clock.install(t);
  });

  afterAll(() => app?.close());

  // Ticks serve every organization: nothing a test leaves may be dialed or recovered in the next.
  afterEach(async () => {
    await completeDialingBatches(t);
    const h = new DialerHarness(t, twilio);
    for (const batchId of batchIds.splice(0)) await h.endAll(batchId, 'completed');
  });
  const batchIds: string[] = [];

  const harness = () => new DialerHarness(t, twilio).organization();
  const placementsTo = (numbers: string[]) =>
    twilio
      .requestsTo('POST', '/Calls.json')
      .filter((r) => numbers.includes(String((r.body as Record<string, string>).To)));

  it('429 three times with retry 0: dialed on the 4th try, Retry-After honoured, one attempt spent', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(1, { retry: 0 });
    batchIds.push(batch.id);
    twilio.rateLimitNext(3, 20, { method: 'POST', path: '/Calls.json' });
    for (let refusal = 1; refusal <= 3; refusal += 1) {
      expect(await h.tick()).toMatchObject({ claimed: 1, released: 1, unknown: 0 });
      // Given back as if never claimed: no phone log, no attempt, due after the Retry-After.
      expect(await h.logs(batch.id)).toEqual([]);
      const [record] = await h.records(batch.id);
      expect(record).toMatchObject({ status: 'pending', attempts: 0, lastCallStatus: null });
      expect(record.nextAttemptAt).toEqual(new Date(clock.current.getTime() + 20_000));
      clock.advance(19);
      expect(await h.tick()).toMatchObject({ claimed: 0 });
      clock.advance(1);
    }
    expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
    expect(placementsTo(numbers)).toHaveLength(4);
    const logs = await h.logs(batch.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ callStatus: 'queued', attempt: 1 });
    expect(logs[0].providerCallId).toMatch(/^CA/);
    expect((await h.records(batch.id))[0]).toMatchObject({ status: 'in_progress', attempts: 1 });
    // Not counted by the breaker, no call event for the refusals.
    expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'active', statusReason: null });
    expect((await h.eventsOf(batch.id)).map((e) => e.type)).toEqual(['call.started']);
  });

  it('a refused connection spends no attempt: given back with a back-off, then dialed', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(1, { retry: 0 });
    batchIds.push(batch.id);
    await twilio.refuseConnections();
    try {
      expect(await h.tick()).toMatchObject({ claimed: 1, released: 1 });
    } finally {
      await twilio.acceptConnections();
    }
    expect(await h.logs(batch.id)).toEqual([]);
    const [record] = await h.records(batch.id);
    expect(record).toMatchObject({ status: 'pending', attempts: 0 });
    expect(record.nextAttemptAt).toEqual(new Date(clock.current.getTime() + 15_000));
    clock.advance(15);
    expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
    expect(placementsTo(numbers)).toHaveLength(1);
    expect((await h.records(batch.id))[0].attempts).toBe(1);
  });

  it('an attempt claimed but never sent (the process stopped) is given back by recovery, unspent', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(1, { retry: 0 });
    batchIds.push(batch.id);
    // The process stops between the claim's commit and the dial check.
    const place = jest.spyOn(t.app.get(CallPlacement), 'place').mockResolvedValueOnce('unknown');
    try {
      expect(await h.tick()).toMatchObject({ claimed: 1 });
    } finally {
      place.mockRestore();
    }
    expect((await h.logs(batch.id))[0]).toMatchObject({ callStatus: 'queued', placingAt: null });
    clock.advance(61);
    // Recovery gives it back, and the same tick claims and dials it: one attempt, one request.
    const report = await h.tick();
    expect(report.recovery).toMatchObject({ released: 1, lost: 0 });
    expect(report).toMatchObject({ claimed: 1, placed: 1 });
    const logs = await h.logs(batch.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ attempt: 1, callStatus: 'queued' });
    expect((await h.records(batch.id))[0].attempts).toBe(1);
    expect(placementsTo(numbers)).toHaveLength(1);
  });

  it('a provider answering 401 to every lookup: the attempt ends unreconciled within the bound, the batch completes', async () => {
    const h = await harness();
    const { batch } = await h.batch(1, { retry: 0 });
    batchIds.push(batch.id);
    await h.tick();
    const [placed] = await h.logs(batch.id);
    twilio.failNext(100, 401, { method: 'GET', path: placed.providerCallId! });
    clock.advance(placedLease);
    // RECOVERY_MAX_LOOKUPS (5) lookups, RECOVERY_RETRY_SECONDS (30) apart.
    for (let lookup = 1; lookup < 5; lookup += 1) {
      await h.tick();
      expect((await h.logs(batch.id))[0]).toMatchObject({
        callStatus: 'queued',
        recoveryLookups: lookup,
      });
      clock.advance(30);
    }
    expect((await h.tick()).recovery.unreconciled).toBeGreaterThanOrEqual(1);
    const [ended] = await h.logs(batch.id);
    expect(ended).toMatchObject({
      callStatus: 'failed',
      endedReason: 'unreconciled',
      leaseExpiresAt: null,
    });
    expect(twilio.requestsTo('GET', placed.providerCallId!)).toHaveLength(5);
    expect((await h.records(batch.id))[0].status).toBe('failed');
    expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'completed' });
    expect((await h.eventsOf(batch.id)).map((e) => e.type)).toEqual([
      'call.started',
      'call.failed',
    ]);
    // Nothing is asked of the provider any more.
    clock.advance(600);
    await h.tick();
    expect(twilio.requestsTo('GET', placed.providerCallId!)).toHaveLength(5);
  });

  it('recovery ends an attempt at its time limit too, however few lookups it made', async () => {
    const h = await harness();
    const { batch } = await h.batch(1, { retry: 0 });
    batchIds.push(batch.id);
    await h.tick();
    const [placed] = await h.logs(batch.id);
    twilio.failNext(100, 503, { method: 'GET', path: placed.providerCallId! });
    clock.advance(placedLease);
    await h.tick();
    expect((await h.logs(batch.id))[0]).toMatchObject({ callStatus: 'queued', recoveryLookups: 1 });
    // The process was away for longer than RECOVERY_TIME_LIMIT_SECONDS (600): one last lookup.
    clock.advance(601);
    await h.tick();
    expect((await h.logs(batch.id))[0]).toMatchObject({
      callStatus: 'failed',
      endedReason: 'unreconciled',
    });
  });

  it("never raises call.started after the attempt's end, even when the clock outruns a slow request", async () => {
    const h = await harness();
    const { batch } = await h.batch(1, { retry: 0 });
    batchIds.push(batch.id);
    const sent = twilio.requestsTo('POST', '/Calls.json').length;
    twilio.delayNext(1, 1_500, { method: 'POST', path: '/Calls.json' });
    const tick = h.tick();
    await waitFor(() => twilio.requestsTo('POST', '/Calls.json').length > sent, {
      what: 'the placement request',
    });
    await waitFor(async () => (await h.logs(batch.id))[0]?.placingAt, { what: 'the dial check' });
    // Past the placing lease while the request is still out: recovery ends it.
    clock.advance(61);
    await t.app.get(AttemptRecovery).pass();
    expect(await tick).toMatchObject({ placed: 1 });
    const [log] = await h.logs(batch.id);
    expect(log).toMatchObject({ callStatus: 'failed', endedReason: 'placement_unknown' });
    expect(log.providerCallId).toMatch(/^CA/);
    expect((await h.eventsOf(batch.id)).map((e) => e.type)).toEqual(['call.failed']);
  });

  it('a cancel that races an attempt ending with a retry leaves no contact pending', async () => {
    const h = await harness();
    const { batch } = await h.batch(1, { retry: 1 });
    batchIds.push(batch.id);
    expect(await h.tick()).toMatchObject({ placed: 1 });
    const [log] = await h.logs(batch.id);
    const database = t.app.get(Database);
    // The attempt ends busy (retried), its transaction held open while the batch is cancelled.
    let hold!: () => void;
    const held = new Promise<void>((resolve) => (hold = resolve));
    let decided!: () => void;
    const ended = new Promise<void>((resolve) => (decided = resolve));
    const ending = database.transaction(async () => {
      const attempt = (await t.app.get(AttemptsRepository).lock(log.id))!;
      await t.app.get(AttemptEndings).end(attempt, {
        status: 'busy',
        endedReason: 'busy',
        endedAt: clock.current,
      });
      decided();
      await held;
    });
    await ended;
    const cancelled = t.app.get(BatchesRepository).cancel(batch.organizationId, batch.id);
    // The cancel waits for the ending (its batch row held), not the other way round.
    await waitFor(
      async () =>
        rowsOf<{ waiting: number }>(
          await database.db.execute(
            sql`SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          ),
        )[0].waiting > 0,
      { what: 'the cancel waiting for the ending' },
    );
    hold();
    await ending;
    expect(await cancelled).toMatchObject({ queueStatus: 'completed', statusReason: 'cancelled' });
    expect((await h.records(batch.id))[0]).toMatchObject({ status: 'canceled' });
  });
});
