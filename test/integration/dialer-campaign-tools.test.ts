import { count, eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import type { CallStatus } from '../../src/modules/call-records/call-records.schema';
import { CallPlacement } from '../../src/modules/dialer/call-placement';
import { DialerClaims } from '../../src/modules/dialer/dialer-claims';
import { DialerClaimsRepository } from '../../src/modules/dialer/dialer-claims.repository';
import type { TwilioFake } from '../fakes';
import { completeDialingBatches, type DialerApp, startDialerApp } from '../support/dialer-app';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import type { TestApp } from '../support/test-app';

/**
 * The campaign tools of issue #30 over HTTP, on a moved clock: a batch's scheduled start and end
 * (startAt, endAt), retry budgets per outcome (retryPolicy) and the re-dial of a chosen subset.
 * Batches are created and re-dialed through the API; ticks and call endings are driven as in
 * dialer.test.ts.
 */
jest.setTimeout(60_000);

type Ending = Exclude<CallStatus, 'queued' | 'ringing' | 'in-progress'>;

let sequence = 0;
/** A valid New York number (the API refuses an exchange starting with 0 or 1), unique here. */
const contactNumber = () => `+1212${String(3_000_000 + (sequence += 1))}`;

describe('campaign tools: startAt, endAt, retryPolicy and re-dial', () => {
  let t: TestApp;
  let twilio: TwilioFake;
  const clock = new TestClock();
  let app: DialerApp | undefined;

  beforeAll(async () => {
    app = await startDialerApp({ DIALER_MAX_CONCURRENT_CALLS: '10' });
    ({ t, twilio } = app);
    clock.install(t);
  });

  afterAll(() => app?.close());

  afterEach(() => completeDialingBatches(t));

  const harness = () => new DialerHarness(t, twilio).organization();
  const auth = (h: DialerHarness) => ({ Authorization: `Bearer ${h.admin.token}` });
  const at = (secondsFromNow: number) =>
    new Date(clock.current.getTime() + secondsFromNow * 1000).toISOString();

  /** A batch made over HTTP, callee-local hours off (the windows are not what is tested here). */
  async function createBatch(h: DialerHarness, numbers: string[], fields: object = {}) {
    const phones = await Promise.all(numbers.map(() => h.number()));
    const response = await t.http
      .post('/api/call/createBatch')
      .set(auth(h))
      .send({
        batchName: 'Campaign',
        callingNumbers: phones.map((phone) => phone.id),
        enforceCalleeLocalHours: false,
        contacts: numbers.map((phoneNumber) => ({ phoneNumber, name: 'Sam' })),
        ...fields,
      })
      .expect(201);
    return response.body.data as string;
  }

  const details = (h: DialerHarness, batchId: string) =>
    t.http.get(`/api/call/batch-details/${batchId}`).set(auth(h)).expect(200);

  /** Ends the live attempt to each number with its outcome. */
  async function endCalls(h: DialerHarness, batchId: string, outcomes: Record<string, Ending>) {
    const records = new Map((await h.records(batchId)).map((r) => [r.id, r.phoneNumber]));
    for (const log of await h.live(batchId)) {
      const outcome = outcomes[records.get(log.callRecordId)!];
      if (outcome) await h.end(log.id, outcome);
    }
  }

  const statusOf = async (h: DialerHarness, batchId: string) =>
    Object.fromEntries(
      (await h.records(batchId)).map((r) => [r.phoneNumber, [r.status, r.attempts]]),
    );

  describe('startAt', () => {
    it('dials nothing before startAt and starts at it; batch details show it', async () => {
      const h = await harness();
      const numbers = [contactNumber()];
      const startAt = at(600);
      const batchId = await createBatch(h, numbers, { startAt });
      expect((await details(h, batchId)).body.data).toMatchObject({ startAt, endAt: null });
      expect(await h.tick()).toMatchObject({ claimed: 0 });
      clock.advance(599);
      expect(await h.tick()).toMatchObject({ claimed: 0 });
      // Each guard on its own: the scheduler's listing, and the claim asked directly.
      const target = { id: batchId, organizationId: h.admin.organizationId };
      const listed = await t.app.get(DialerClaimsRepository).listDialing(clock.current);
      expect(listed.map((batch) => batch.id)).not.toContain(batchId);
      expect(await t.app.get(DialerClaims).claimBatch(target, clock.current)).toEqual([]);
      expect(h.callsTo(numbers)).toHaveLength(0);
      expect((await h.records(batchId))[0]).toMatchObject({ status: 'pending', attempts: 0 });
      clock.advance(1);
      expect(await h.tick()).toMatchObject({ claimed: 1, placed: 1 });
      expect(h.callsTo(numbers)).toHaveLength(1);
      await h.endAll(batchId, 'completed');
    });
  });

  describe('endAt', () => {
    it('never places a call after endAt, closes what waits and completes the batch; calls in flight finish', async () => {
      const h = await harness();
      const numbers = [1, 2, 3, 4].map(() => contactNumber());
      const endAt = new Date(at(1_200));
      const batchId = await createBatch(h, numbers, {
        endAt: endAt.toISOString(),
        maxConcurrentCalls: 2,
        retry: 3,
      });
      expect((await details(h, batchId)).body.data).toMatchObject({
        endAt: endAt.toISOString(),
        startAt: null,
      });
      expect(await h.tick()).toMatchObject({ claimed: 2, placed: 2 });
      const first = h.callsTo(numbers).map((call) => call.to);
      const [stillOn, done] = first;
      await endCalls(h, batchId, { [done]: 'completed' });

      // 200 s before endAt (more than the 180 s last-call margin): a claim is made...
      clock.current = new Date(endAt.getTime() - 200_000);
      const [claim] = await t.app
        .get(DialerClaims)
        .claimBatch({ id: batchId, organizationId: h.admin.organizationId }, clock.current);
      expect(claim).toBeDefined();
      const [log] = (await h.logs(batchId)).filter((l) => l.id === claim.phoneLogId);
      // ...whose permit closes at endAt, the window itself being open all day.
      expect(log.windowClosesAt).toEqual(endAt);
      // Its placement comes after endAt (a provider slot that came late): nothing is sent.
      clock.current = new Date(endAt.getTime() + 1_000);
      expect(await t.app.get(CallPlacement).place(claim)).toBe('withheld');
      expect(h.callsTo([claim.to])).toHaveLength(0);

      // The next pass ends the batch: whatever waits is closed, nothing more is claimed.
      expect(await h.tick()).toMatchObject({ claimed: 0 });
      const batch = (await details(h, batchId)).body.data;
      expect(batch).toMatchObject({ batchStatus: 'completed', statusReason: 'end_at_reached' });
      // The one claimed before endAt and given back, and the one never claimed.
      const waitingNumbers = numbers.filter((n) => !first.includes(n));
      expect(waitingNumbers).toContain(claim.to);
      const records = await statusOf(h, batchId);
      for (const number of waitingNumbers) expect(records[number]).toEqual(['canceled', 0]);
      expect(records[done]).toEqual(['completed', 1]);
      // The call in flight at endAt finishes; busy with retries left, it is not called again.
      expect(records[stillOn]).toEqual(['in_progress', 1]);
      await endCalls(h, batchId, { [stillOn]: 'busy' });
      expect((await statusOf(h, batchId))[stillOn]).toEqual(['failed', 1]);
      clock.advance(3_600);
      expect(await h.tick()).toMatchObject({ claimed: 0 });
      expect(h.callsTo(numbers)).toHaveLength(2);
      // An ended batch takes no more contacts.
      await t.http
        .post(`/api/call/batches/${batchId}/contacts`)
        .set(auth(h))
        .send({ contacts: [{ phoneNumber: contactNumber() }] })
        .expect(409);
    });

    it('claims nothing within the last-call margin before endAt, and schedules no retry it could not place', async () => {
      const h = await harness();
      const [busy, late] = [contactNumber(), contactNumber()];
      const endAt = new Date(at(600));
      const batchId = await createBatch(h, [busy], {
        endAt: endAt.toISOString(),
        retry: 2,
        delay: 500,
      });
      expect(await h.tick()).toMatchObject({ claimed: 1 });
      // Its retry would come 500 s later, 100 s before endAt: within the margin, so none.
      await h.endAll(batchId, 'busy');
      expect((await statusOf(h, batchId))[busy]).toEqual(['failed', 1]);
      // A contact added 170 s before endAt waits; endAt closes it.
      clock.current = new Date(endAt.getTime() - 170_000);
      await t.http
        .post(`/api/call/batches/${batchId}/contacts`)
        .set(auth(h))
        .send({ contacts: [{ phoneNumber: late }] })
        .expect(201);
      expect(await h.tick()).toMatchObject({ claimed: 0 });
      clock.current = endAt;
      await h.tick();
      expect((await statusOf(h, batchId))[late]).toEqual(['canceled', 0]);
      expect(h.callsTo([busy, late])).toHaveLength(1);
    });
  });

  describe('retryPolicy', () => {
    it('retries busy 3 times after its own delay while no_answer gets the batch retry once', async () => {
      const h = await harness();
      const [busy, unanswered] = [contactNumber(), contactNumber()];
      const retryPolicy = { busy: { attempts: 3, delay: 300 } };
      const batchId = await createBatch(h, [busy, unanswered], {
        retry: 1,
        delay: 60,
        retryPolicy,
      });
      expect((await details(h, batchId)).body.data.retryPolicy).toEqual(retryPolicy);
      const start = clock.current.getTime();
      // Every 60 s for 25 minutes: each call ends at once with its number's outcome.
      for (let second = 0; second <= 1_500; second += 60) {
        clock.current = new Date(start + second * 1000);
        await h.tick();
        await endCalls(h, batchId, { [busy]: 'busy', [unanswered]: 'no-answer' });
      }
      expect(h.callsTo([busy])).toHaveLength(4);
      expect(h.callsTo([unanswered])).toHaveLength(2);
      const logs = await h.logs(batchId);
      const records = new Map((await h.records(batchId)).map((r) => [r.id, r.phoneNumber]));
      const secondsOf = (number: string) =>
        logs
          .filter((log) => records.get(log.callRecordId) === number)
          .map((log) => (log.placedAt!.getTime() - start) / 1000);
      // busy: its own 300 s delay (the ticks are a minute apart, so each lands on one).
      expect(secondsOf(busy)).toEqual([0, 300, 600, 900]);
      expect(secondsOf(unanswered)).toEqual([0, 60]);
      expect(await statusOf(h, batchId)).toEqual({
        [busy]: ['failed', 4],
        [unanswered]: ['failed', 2],
      });
      expect(await h.batchRow(batchId)).toMatchObject({ queueStatus: 'completed' });
    });

    it('takes the policy from a multipart form too', async () => {
      const h = await harness();
      const phone = await h.number();
      const startAt = at(60);
      const response = await t.http
        .post('/api/call/createBatch')
        .set(auth(h))
        .field('batchName', 'Form')
        .field('callingNumbers', phone.id)
        .field('retryPolicy', '{"no_answer":{"attempts":2},"voicemail":{"attempts":0,"delay":10}}')
        .field('startAt', startAt)
        .field('endAt', at(3_600))
        .expect(201);
      expect((await details(h, response.body.data)).body.data).toMatchObject({
        startAt,
        retryPolicy: { no_answer: { attempts: 2 }, voicemail: { attempts: 0, delay: 10 } },
      });
    });
  });

  describe('re-dial', () => {
    it('re-dials exactly the no-answer contacts as a new series, once, never a DNC number nor another batch', async () => {
      const h = await harness();
      const [unanswered, busy, answered, listed] = [1, 2, 3, 4].map(() => contactNumber());
      const outcomes: Record<string, Ending> = {
        [unanswered]: 'no-answer',
        [busy]: 'busy',
        [answered]: 'completed',
        [listed]: 'no-answer',
      };
      const batchId = await createBatch(h, Object.keys(outcomes), { retry: 1, delay: 60 });
      const otherNumber = contactNumber();
      const other = await createBatch(h, [otherNumber]);
      // First series: one retry each, then closed.
      await h.tick();
      await endCalls(h, batchId, outcomes);
      await endCalls(h, other, { [otherNumber]: 'no-answer' });
      clock.advance(60);
      await h.tick();
      await endCalls(h, batchId, outcomes);
      expect(await h.batchRow(batchId)).toMatchObject({
        queueStatus: 'completed',
        callsCompleted: 1,
      });
      await h.addDnc(listed);
      const before = h.twilio.calls.length;

      const redial = (body: object, key?: string) => {
        const request = t.http.post(`/api/call/batches/${batchId}/redial`).set(auth(h));
        return (key ? request.set('Idempotency-Key', key) : request).send(body);
      };
      const first = await redial({ outcomes: ['no-answer'] }, 'redial-1').expect(200);
      expect(first.body.data).toMatchObject({
        redialed: 1,
        batch: { queue_status: 'active', statusReason: null },
      });
      // The same request again: the first answer, nothing changed.
      const replay = await redial({ outcomes: ['no-answer'] }, 'redial-1').expect(200);
      expect(replay.body.data).toEqual(first.body.data);
      // Without the key, while the first series is pending: nothing to re-dial.
      expect((await redial({ outcomes: ['no-answer'] }).expect(200)).body.data.redialed).toBe(0);
      expect(await statusOf(h, batchId)).toEqual({
        [unanswered]: ['pending', 2],
        [busy]: ['failed', 2],
        [answered]: ['completed', 1],
        [listed]: ['failed', 2],
      });

      // The new series: only that contact is called, and its retry budget is whole again.
      await h.tick();
      expect(h.twilio.calls.slice(before).map((call) => call.to)).toEqual([unanswered]);
      await endCalls(h, batchId, outcomes);
      expect((await statusOf(h, batchId))[unanswered]).toEqual(['pending', 3]);
      clock.advance(60);
      await h.tick();
      await endCalls(h, batchId, outcomes);
      expect((await statusOf(h, batchId))[unanswered]).toEqual(['failed', 4]);
      expect(h.callsTo([listed])).toHaveLength(2);
      expect(h.callsTo([otherNumber])).toHaveLength(1);
      expect((await h.records(other))[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(await h.batchRow(batchId)).toMatchObject({ queueStatus: 'completed' });

      // An answered contact only when named: a filter alone never takes it.
      const filtered = await redial({ filter: { callStatus: 'completed' } }).expect(200);
      expect(filtered.body.data.redialed).toBe(0);
      const named = await redial({ outcomes: ['completed'] }).expect(200);
      expect(named.body.data).toMatchObject({
        redialed: 1,
        batch: { queue_status: 'active', callsCompleted: 0 },
      });
      await h.tick();
      expect(h.callsTo([answered])).toHaveLength(2);
      await endCalls(h, batchId, outcomes);
      expect(await h.batchRow(batchId)).toMatchObject({
        queueStatus: 'completed',
        callsCompleted: 1,
      });
    });
  });

  describe('hostile input', () => {
    it('answers 400 in the common envelope and creates nothing', async () => {
      const h = await harness();
      const phone = await h.number();
      const batchCount = async () =>
        (
          await t.app
            .get(Database)
            .db.select({ total: count() })
            .from(batches)
            .where(eq(batches.organizationId, h.admin.organizationId))
        )[0].total;
      const base = { batchName: 'Bad', callingNumbers: [phone.id] };
      // Each with the field named and what its message says.
      const cases: Array<[object, string, RegExp]> = [
        [{ startAt: at(3_600), endAt: at(1_800) }, 'endAt', /after startAt/],
        [{ endAt: at(-60) }, 'endAt', /in the future/],
        [{ startAt: '2026-03-02' }, 'startAt', /ISO 8601 instant/],
        [{ endAt: '2026-02-30T10:00:00Z' }, 'endAt', /ISO 8601 instant/],
        [{ retryPolicy: { 'no-answer': { attempts: 1 } } }, 'retryPolicy.no-answer', /exist/],
        [{ retryPolicy: { ringing: { attempts: 1 } } }, 'retryPolicy.ringing', /exist/],
        [{ retryPolicy: { busy: { attempts: -1 } } }, 'retryPolicy.busy.attempts', /less than 0/],
        [{ retryPolicy: { busy: { delay: 30 } } }, 'retryPolicy.busy.attempts', /integer/],
        [{ retryPolicy: ['busy'] }, 'retryPolicy', /object/],
      ];
      for (const [fields, field, message] of cases) {
        const response = await t.http
          .post('/api/call/createBatch')
          .set(auth(h))
          .send({ ...base, ...fields })
          .expect(400);
        expect(response.body).toMatchObject({ status: false, code: 400 });
        expect(response.body.errors).toContainEqual({
          field,
          message: expect.stringMatching(message),
        });
      }
      const form = await t.http
        .post('/api/call/createBatch')
        .set(auth(h))
        .field('batchName', 'Bad form')
        .field('callingNumbers', phone.id)
        .field('endAt', at(-1))
        .expect(400);
      expect(form.body.errors).toEqual([
        { field: 'endAt', message: 'endAt must be in the future' },
      ]);
      expect(await batchCount()).toBe(0);
    });

    it('refuses a re-dial of unknown outcomes, a bad filter, nothing named, or a cancelled batch, changing nothing', async () => {
      const h = await harness();
      const number = contactNumber();
      const batchId = await createBatch(h, [number]);
      await h.tick();
      await h.endAll(batchId, 'no-answer');
      const redial = (body: object) =>
        t.http.post(`/api/call/batches/${batchId}/redial`).set(auth(h)).send(body);
      for (const body of [
        { outcomes: ['no_answer'] },
        { outcomes: ['ringing'] },
        { outcomes: [] },
        { outcomes: 'busy' },
        {},
        { filter: { colour: 'blue' } },
        { filter: 'callStatus' },
        { search: '(a+)+' },
        { outcomes: ['busy'], extra: true },
      ]) {
        const response = await redial(body).expect(400);
        expect(response.body).toMatchObject({ status: false, code: 400 });
        expect(JSON.stringify(response.body)).not.toMatch(/SELECT|stack|at \//);
      }
      expect((await h.records(batchId))[0]).toMatchObject({ status: 'failed', attempts: 1 });
      await t.http
        .post(`/api/call/batches/${'f'.repeat(24)}/redial`)
        .set(auth(h))
        .send({ outcomes: ['busy'] })
        .expect(404);
      const cancellable = await createBatch(h, [contactNumber()], { startAt: at(3_600) });
      await t.http.post(`/api/call/batches/${cancellable}/cancel`).set(auth(h)).expect(200);
      await t.http
        .post(`/api/call/batches/${cancellable}/redial`)
        .set(auth(h))
        .send({ outcomes: ['no-answer'] })
        .expect(409);
    });
  });
});
