import { eq } from 'drizzle-orm';
import { Client } from 'pg';
import { Database } from '../../src/database';
import { phoneNumbers } from '../../src/modules/phones/phones.schema';
import type { TwilioFake } from '../fakes';
import { completeDialingBatches, type DialerApp, startDialerApp } from '../support/dialer-app';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import type { TestApp } from '../support/test-app';

/**
 * The scheduler against the Twilio fake, one tick at a time on a moved clock. Attempts end as
 * a final callback would (DialerHarness.end), so these run before and after the callback routes.
 */
jest.setTimeout(60_000);

describe('dialer', () => {
  let t: TestApp;
  let twilio: TwilioFake;
  const clock = new TestClock();

  let app: DialerApp | undefined;

  beforeAll(async () => {
    app = await startDialerApp({ DIALER_MAX_CONCURRENT_CALLS: '3' });
    ({ t, twilio } = app);
    clock.install(t);
  });

  afterAll(() => app?.close());

  afterEach(() => completeDialingBatches(t));

  const harness = () => new DialerHarness(t, twilio).organization();
  /** Runs `body` with the clock at `instant`, then puts it back where the other tests left it. */
  const atInstant = async (instant: string, body: () => Promise<void>) => {
    const before = clock.current;
    clock.current = new Date(instant);
    try {
      await body();
    } finally {
      clock.current = before;
    }
  };
  const callingNumbers = async (h: DialerHarness, count: number) =>
    (await Promise.all(Array.from({ length: count }, () => h.number()))).map((p) => p.id);

  it('places every contact exactly once, records the placement, and completes the batch', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(3, { callingNumbers: await callingNumbers(h, 3) });
    const report = await h.tick();
    expect(report).toMatchObject({ claimed: 3, placed: 3 });
    const calls = h.callsTo(numbers);
    expect(calls.map((call) => call.to).sort()).toEqual([...numbers].sort());
    const logs = await h.logs(batch.id);
    expect(logs).toHaveLength(3);
    for (const log of logs) {
      expect(log.callStatus).toBe('queued');
      expect(log.attempt).toBe(1);
      expect(log.providerCallId).toMatch(/^CA/);
      expect(log.placedAt).toEqual(clock.current);
      expect(log.permit).toBeTruthy();
      expect(log.agentId).toBeTruthy();
      // The callback URLs of this call name its phone log.
      const call = twilio.call(log.providerCallId!);
      expect(call.statusCallback).toContain(`call=${log.id}`);
      expect(call.from).toBe(log.fromNumber);
      // The agent's maxCallSeconds, answering-machine detection, the ring timeout.
      expect(call.params).toMatchObject({
        TimeLimit: '300',
        MachineDetection: 'Enable',
        // Asynchronous: the callee who says "Hello?" is not kept waiting for the verdict.
        AsyncAmd: 'true',
        AsyncAmdStatusCallback: call.statusCallback,
        Timeout: '45',
      });
      expect(call.params.Record).toBeUndefined();
    }
    await h.endAll(batch.id, 'completed');
    // call.started once per attempt (at the placement), then the end.
    const raised = await h.eventsOf(batch.id);
    expect(raised.map((e) => e.type)).toEqual(
      Array.from({ length: 3 }, () => ['call.started', 'call.completed']).flat(),
    );
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    expect(h.callsTo(numbers)).toHaveLength(3);
    const row = await h.batchRow(batch.id);
    expect(row).toMatchObject({ queueStatus: 'completed', callsCompleted: 3, statusReason: null });
  });

  it('retries a busy contact after `delay`, never earlier, up to `retry` extra attempts', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(1, { retry: 1, delay: 600 });
    await h.tick();
    await h.endAll(batch.id, 'busy');
    const [record] = await h.records(batch.id);
    expect(record.status).toBe('pending');
    expect(record.nextAttemptAt).toEqual(new Date(clock.current.getTime() + 600_000));
    clock.advance(599);
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    clock.advance(1);
    expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
    expect(h.callsTo(numbers)).toHaveLength(2);
    const logs = await h.logs(batch.id);
    expect(logs.map((log) => log.attempt)).toEqual([1, 2]);
    await h.endAll(batch.id, 'busy');
    clock.advance(3600);
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    expect((await h.records(batch.id))[0]).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'completed' });
    clock.advance(60);
  });

  it('counts the attempt that just ended toward the state cap of the next (FL: 3 in 24 h)', async () => {
    const h = await harness();
    const { batch } = await h.batch(0, { retry: 5, delay: 60, enforceCalleeLocalHours: true });
    await h.calling.callRecords(batch, [{ phoneNumber: '+13055550123', name: 'Sam' }]);
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
      await h.endAll(batch.id, 'busy');
      clock.advance(60);
    }
    const [first] = await h.logs(batch.id);
    const [record] = await h.records(batch.id);
    // 10:00 in Miami a day after the first attempt: the window is open, the cap frees then.
    expect(record).toMatchObject({
      status: 'pending',
      nextAttemptAt: new Date(first.placedAt!.getTime() + 24 * 3_600_000),
    });
  });

  it('never rings one number from two batches at once: the other waits until the call ended', async () => {
    const h = await harness();
    const number = '+12125550177';
    const batches = [(await h.batch(0)).batch, (await h.batch(0)).batch];
    for (const batch of batches)
      await h.calling.callRecords(batch, [{ phoneNumber: number, name: 'Sam' }]);
    expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
    expect(h.callsTo([number])).toHaveLength(1);
    // Still on the call a minute later: the other batch's record waits again.
    clock.advance(60);
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    for (const batch of batches) await h.endAll(batch.id, 'completed');
    clock.advance(60);
    expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
    expect(h.callsTo([number])).toHaveLength(2);
    for (const batch of batches) await h.endAll(batch.id, 'completed');
    const records = (await Promise.all(batches.map((batch) => h.records(batch.id)))).flat();
    expect(records.map((record) => [record.status, record.attempts])).toEqual([
      ['completed', 1],
      ['completed', 1],
    ]);
  });

  it("counts a state's daily cap per number across batches (FL: 3 in 24 h, two batches)", async () => {
    const h = await harness();
    const number = '+13055550188';
    const options = { retry: 5, delay: 60, enforceCalleeLocalHours: true };
    const batches = [(await h.batch(0, options)).batch, (await h.batch(0, options)).batch];
    for (const batch of batches)
      await h.calling.callRecords(batch, [{ phoneNumber: number, name: 'Sam' }]);
    for (let round = 0; round < 6; round += 1) {
      await h.tick();
      for (const batch of batches) await h.endAll(batch.id, 'busy');
      clock.advance(61);
    }
    expect(h.callsTo([number])).toHaveLength(3);
    const logs = (await Promise.all(batches.map((batch) => h.logs(batch.id)))).flat();
    const first = Math.min(...logs.map((log) => log.placedAt!.getTime()));
    // Both records wait for the cap to free, a day after the first attempt to the number.
    for (const batch of batches)
      expect((await h.records(batch.id))[0]).toMatchObject({
        status: 'pending',
        nextAttemptAt: new Date(first + 24 * 3_600_000),
      });
  });

  it("does not take a contact's timezone the number cannot be in: 21:30 in New York is closed for a 212 number said to be in Tokyo", async () => {
    const h = await harness();
    const number = '+12125550199';
    const [lying, trusting] = [
      (await h.batch(0, { enforceCalleeLocalHours: true })).batch,
      (await h.batch(0, { enforceCalleeLocalHours: true, trustContactTimezone: true })).batch,
    ];
    await h.calling.callRecords(lying, [
      { phoneNumber: number, name: 'Sam', timezone: 'Asia/Tokyo' },
    ]);
    // 2026-03-02 21:30 EST (11:30 in Tokyo).
    await atInstant('2026-03-03T02:30:00Z', async () => {
      expect(await h.tick()).toMatchObject({ claimed: 0 });
      expect(h.callsTo([number])).toHaveLength(0);
      const [record] = await h.records(lying.id);
      // Held until 08:00 in New York.
      expect(record).toMatchObject({
        status: 'pending',
        nextAttemptAt: new Date('2026-03-03T13:00:00Z'),
      });
      // A batch that trusts its contacts' zones takes Tokyo's word.
      await h.calling.callRecords(trusting, [
        { phoneNumber: '+12125550198', name: 'Kai', timezone: 'Asia/Tokyo' },
      ]);
      expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
      await h.endAll(trusting.id, 'completed');
    });
  });

  it('does not claim a call its window closes on within the last-call margin (DIALER_LAST_CALL_MARGIN_SECONDS, 180 s)', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(1, {
      timezone: 'UTC',
      callingHourStart: '09:00',
      callingHourEnd: '15:00',
      enforceCalleeLocalHours: false,
    });
    await atInstant('2026-03-03T14:58:30Z', async () => {
      expect(await h.tick()).toMatchObject({ claimed: 0 });
      expect(h.callsTo(numbers)).toHaveLength(0);
      expect((await h.records(batch.id))[0]).toMatchObject({
        status: 'pending',
        nextAttemptAt: new Date('2026-03-04T09:00:00Z'),
      });
    });
  });

  it('skips DNC numbers, including one listed while the batch runs (within one tick)', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(4, { maxConcurrentCalls: 1 });
    const sorted = [...numbers].sort();
    await h.addDnc(sorted[3]);
    await h.tick();
    const first = h.callsTo(numbers);
    expect(first).toHaveLength(1);
    // Listed behind the API's back (no pending-record update): only the claim can stop it.
    const next = sorted.filter((n) => n !== first[0].to && n !== sorted[3]);
    await h.addDnc(next[0]);
    await h.endAll(batch.id, 'completed');
    clock.advance(1);
    await h.tick();
    await h.endAll(batch.id, 'completed');
    clock.advance(1);
    await h.tick();
    await h.endAll(batch.id, 'completed');
    clock.advance(1);
    await h.tick();
    const called = h.callsTo(numbers).map((call) => call.to);
    expect(called).not.toContain(sorted[3]);
    expect(called).not.toContain(next[0]);
    expect(called).toHaveLength(2);
    const statuses = Object.fromEntries(
      (await h.records(batch.id)).map((r) => [r.phoneNumber, r.status]),
    );
    expect(statuses[sorted[3]]).toBe('do_not_call');
    expect(statuses[next[0]]).toBe('do_not_call');
    expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'completed' });
  });

  it('claims a record another transaction only references (search indexing, a child row)', async () => {
    const h = await harness();
    const { batch } = await h.batch(1);
    const [record] = await h.records(batch.id);
    // What the search indexer's INSERT into call_record_search holds on the record until it commits.
    const other = new Client({ connectionString: t.database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM call_records WHERE id = $1 FOR KEY SHARE', [record.id]);
      expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    await h.endAll(batch.id, 'completed');
  });

  it('pause stops claims at once, resume continues, cancel stops what is left', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(4, { maxConcurrentCalls: 1 });
    const auth = { Authorization: `Bearer ${h.admin.token}` };
    await h.tick();
    await t.http.post(`/api/call/batches/${batch.id}/pause`).set(auth).expect(200);
    await h.endAll(batch.id, 'completed');
    clock.advance(5);
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    const resumed = await t.http.post(`/api/call/batches/${batch.id}/resume`).set(auth).expect(200);
    expect(resumed.body.data).toMatchObject({ queue_status: 'active', statusReason: null });
    expect(await h.tick()).toMatchObject({ claimed: 1 });
    const cancelled = await t.http
      .post(`/api/call/batches/${batch.id}/cancel`)
      .set(auth)
      .expect(200);
    expect(cancelled.body.data).toMatchObject({
      queue_status: 'completed',
      statusReason: 'cancelled',
    });
    // The call in flight finishes and counts; nothing else is dialed.
    await h.endAll(batch.id, 'completed');
    clock.advance(5);
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    expect(h.callsTo(numbers)).toHaveLength(2);
    const statuses = (await h.records(batch.id)).map((r) => r.status).sort();
    expect(statuses).toEqual(['canceled', 'canceled', 'completed', 'completed']);
    expect(await h.batchRow(batch.id)).toMatchObject({ callsCompleted: 2 });
    await t.http.post(`/api/call/batches/${batch.id}/cancel`).set(auth).expect(409);
  });

  it('deleting a batch stops its claims at once', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(2, { maxConcurrentCalls: 1 });
    await h.tick();
    await t.http
      .delete(`/api/call/delete-batch/${batch.id}`)
      .set({ Authorization: `Bearer ${h.admin.token}` })
      .expect(200);
    await h.endAll(batch.id, 'completed');
    clock.advance(5);
    await h.tick();
    expect(h.callsTo(numbers)).toHaveLength(1);
  });

  it('never exceeds the organization limit nor a batch limit', async () => {
    const h = await harness();
    const phones = await Promise.all([h.number(), h.number(), h.number(), h.number()]);
    const ids = phones.map((p) => p.id);
    const a = await h.batch(6, { callingNumbers: ids, maxConcurrentCalls: 2 });
    const b = await h.batch(6, { callingNumbers: ids });
    for (let round = 0; round < 6; round += 1) {
      await h.tick();
      const liveA = (await h.live(a.batch.id)).length;
      const liveB = (await h.live(b.batch.id)).length;
      expect(liveA).toBeLessThanOrEqual(2);
      expect(liveA + liveB).toBeLessThanOrEqual(3); // DIALER_MAX_CONCURRENT_CALLS
      expect(liveA + liveB).toBeGreaterThan(0);
      const [oldest] = [...(await h.live(a.batch.id)), ...(await h.live(b.batch.id))];
      await h.end(oldest.id, 'completed');
      clock.advance(1);
    }
  });

  it("counts only the organization's own live calls against its limit", async () => {
    const full = await harness();
    await full.batch(3, { callingNumbers: await callingNumbers(full, 3) });
    expect(await full.tick()).toMatchObject({ claimed: 3 }); // that organization at its limit
    const h = await harness();
    await h.batch(2, { callingNumbers: await callingNumbers(h, 2) });
    expect(await h.tick()).toMatchObject({ claimed: 2 });
  });

  it('paces each number at DIALER_CALLS_PER_SECOND, also when batches share it', async () => {
    const h = await harness();
    const shared = await h.number();
    const a = await h.batch(3, { callingNumbers: [shared.id] });
    const b = await h.batch(3, { callingNumbers: [shared.id] });
    const all = [...a.numbers, ...b.numbers];
    // A slot is claimed once it starts within the coming second (placement waits for it):
    // slots t, t+1, t+2… whatever the tick times, so one call per second per number.
    const start = clock.current.getTime();
    expect(await h.tick()).toMatchObject({ claimed: 1 }); // slot t
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    clock.advance(0.5);
    expect(await h.tick()).toMatchObject({ claimed: 1 }); // slot t+1
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    clock.advance(0.4);
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    clock.advance(0.6);
    expect(await h.tick()).toMatchObject({ claimed: 1 }); // slot t+2
    const from = h.callsTo(all).map((call) => call.from);
    expect(from).toEqual([shared.phoneNumber, shared.phoneNumber, shared.phoneNumber]);
    const [paced] = await t.app
      .get(Database)
      .db.select()
      .from(phoneNumbers)
      .where(eq(phoneNumbers.id, shared.id));
    expect(paced.nextDialAt).toEqual(new Date(start + 3000));
    // Both batches take turns on the shared number.
    const perBatch = [(await h.logs(a.batch.id)).length, (await h.logs(b.batch.id)).length];
    expect(perBatch.sort()).toEqual([1, 2]);
  });

  it('rotates through the calling numbers', async () => {
    const h = await harness();
    const phones = await Promise.all([h.number(), h.number(), h.number()]);
    const { numbers } = await h.batch(3, {
      callingNumbers: phones.map((p) => p.id),
      recordCalls: true,
    });
    await h.tick();
    const calls = h.callsTo(numbers);
    expect(new Set(calls.map((call) => call.from))).toEqual(
      new Set(phones.map((p) => p.phoneNumber)),
    );
    for (const call of calls) expect(call.params).toMatchObject({ Record: 'true' });
  });

  it('pauses with failure_rate when most recent attempts failed, not for busy ones', async () => {
    const h = await harness();
    const phones = await Promise.all([h.number(), h.number(), h.number()]);
    const callingNumbers = phones.map((p) => p.id);
    const busy = await h.batch(6, { callingNumbers, maxConcurrentCalls: 3 });
    const failing = await h.batch(6, { callingNumbers, maxConcurrentCalls: 3 });
    for (let round = 0; round < 6; round += 1) {
      await h.tick();
      await h.endAll(busy.batch.id, 'busy');
      await h.endAll(failing.batch.id, 'failed');
      clock.advance(1);
    }
    expect(await h.batchRow(busy.batch.id)).toMatchObject({ statusReason: null });
    const paused = await h.batchRow(failing.batch.id);
    expect(paused).toMatchObject({ queueStatus: 'paused', statusReason: 'failure_rate' });
    const placed = (await h.logs(failing.batch.id)).length;
    expect(placed).toBeGreaterThanOrEqual(5);
    clock.advance(1);
    await h.tick();
    expect((await h.logs(failing.batch.id)).length).toBe(placed);
  });

  it('trips on the failed ending that makes BREAKER_MIN_ENDED (5), counting that ending', async () => {
    const h = await harness();
    const numbers = await callingNumbers(h, 3);
    const { batch } = await h.batch(6, { callingNumbers: numbers, maxConcurrentCalls: 3 });
    await h.tick();
    expect(await h.endAll(batch.id, 'failed')).toBe(3);
    clock.advance(1);
    await h.tick();
    const [fourth, fifth] = await h.live(batch.id);
    await h.end(fourth.id, 'failed');
    expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'active' });
    await h.end(fifth.id, 'failed');
    const paused = await h.batchRow(batch.id);
    expect(paused).toMatchObject({ queueStatus: 'paused', statusReason: 'failure_rate' });
  });

  it('leaves a batch without contacts active (its contacts may still come)', async () => {
    const h = await harness();
    const { batch } = await h.batch(0);
    await h.tick();
    expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'active' });
  });

  it('pauses with no_agent and no_calling_number when nothing can speak or dial', async () => {
    const silent = await new DialerHarness(t, twilio).organization({ agent: false });
    const { batch } = await silent.batch(1);
    await silent.tick();
    expect(await silent.batchRow(batch.id)).toMatchObject({
      queueStatus: 'paused',
      statusReason: 'no_agent',
    });
    const h = await harness();
    const inactive = await h.number('inactive');
    const numberless = await h.batch(1, { callingNumbers: [inactive.id] });
    await h.tick();
    expect(await h.batchRow(numberless.batch.id)).toMatchObject({
      queueStatus: 'paused',
      statusReason: 'no_calling_number',
    });
    expect(await silent.logs(batch.id)).toHaveLength(0);
  });

  it('a definite provider refusal ends the attempt failed (provider_error), once', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(1);
    twilio.failNext(1, 400, { method: 'POST', path: '/Calls.json' });
    expect(await h.tick()).toMatchObject({ claimed: 1, refused: 1 });
    const [log] = await h.logs(batch.id);
    expect(log).toMatchObject({ callStatus: 'failed', endedReason: 'provider_error' });
    expect(log.leaseExpiresAt).toBeNull();
    clock.advance(600);
    await h.tick();
    expect(
      twilio
        .requestsTo('POST', '/Calls.json')
        .filter((r) => numbers.includes(String((r.body as Record<string, string>).To))),
    ).toHaveLength(1);
  });

  it('an ambiguous placement is never re-sent: past its lease it ends placement_unknown', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(1);
    twilio.failNext(1, 503, { method: 'POST', path: '/Calls.json' });
    expect(await h.tick()).toMatchObject({ claimed: 1, unknown: 1 });
    const [pending] = await h.logs(batch.id);
    expect(pending).toMatchObject({ callStatus: 'queued', providerCallId: null });
    clock.advance(59);
    await h.tick();
    expect((await h.logs(batch.id))[0].callStatus).toBe('queued');
    clock.advance(2);
    await h.tick();
    const logs = await h.logs(batch.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ callStatus: 'failed', endedReason: 'placement_unknown' });
    const sent = twilio
      .requestsTo('POST', '/Calls.json')
      .filter((r) => numbers.includes(String((r.body as Record<string, string>).To)));
    expect(sent).toHaveLength(1);
  });

  it('recovers a placed call whose callbacks never came from the provider, without re-placing', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(2, { callingNumbers: await callingNumbers(h, 2) });
    twilio.autoProgress = () => 'hold';
    try {
      await h.tick();
    } finally {
      twilio.autoProgress = undefined;
    }
    const [first, second] = await h.logs(batch.id);
    // At the provider one call completed and one is still ringing; no callback reached us.
    const done = twilio.call(first.providerCallId!);
    Object.assign(done, {
      status: 'completed',
      answeredAt: new Date(Date.now() - 30_000),
      endedAt: new Date(),
    });
    twilio.call(second.providerCallId!).status = 'ringing';
    clock.advance(45 + 300 + 120 + 1);
    await h.tick();
    const [recovered, alive] = await h.logs(batch.id);
    expect(recovered).toMatchObject({
      callStatus: 'completed',
      endedReason: 'reconciled',
      providerStatus: 'completed',
      callDuration: 30,
    });
    expect(alive.callStatus).toBe('queued');
    expect(alive.leaseExpiresAt!.getTime()).toBeGreaterThan(clock.current.getTime());
    expect(h.callsTo(numbers)).toHaveLength(2);
  });

  it('auto-progress walks each placed call to its scripted outcome; recovery reads it back', async () => {
    const h = await harness();
    const { batch, numbers } = await h.batch(2, { callingNumbers: await callingNumbers(h, 2) });
    const [busy, answered] = [...numbers].sort();
    twilio.autoProgress = (to) => (to === busy ? 'busy' : 'completed');
    try {
      await h.tick();
      await twilio.settled();
    } finally {
      twilio.autoProgress = undefined;
    }
    const calls = h.callsTo(numbers);
    expect(Object.fromEntries(calls.map((call) => [call.to, call.status]))).toEqual({
      [busy]: 'busy',
      [answered]: 'completed',
    });
    // Each progress step was sent as a status callback to the call's own URL.
    for (const call of calls) {
      const sent = twilio.deliveries.filter((d) => d.callId === call.sid && d.kind === 'status');
      expect(sent.map((d) => d.event)).toEqual(
        call.to === busy
          ? ['initiated', 'ringing', 'busy']
          : // AsyncAmd's verdict (a person) comes to the status URL after the answer.
            ['initiated', 'ringing', 'in-progress', 'amd', 'completed'],
      );
    }
    // Whether or not those callbacks were heard, once the lease is past every attempt is final.
    clock.advance(45 + 300 + 120 + 1);
    await h.tick();
    const statuses = Object.fromEntries(
      (await h.records(batch.id)).map((r) => [r.phoneNumber, r.lastCallStatus]),
    );
    expect(statuses).toEqual({ [busy]: 'busy', [answered]: 'completed' });
  });
});
