import { PlivoFake, type SlowRequests, TwilioFake } from '../fakes';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * A provider outage slows nobody else (issue #12): while every placement request to one
 * provider hangs until its 10 s timeout, the scheduler's timer keeps ticking, so another
 * organization's batch on another provider is dialed within a tick or two; nor do a provider's
 * hanging lookups (recovery runs on its own timers, issue #28 finding 9). A claim that waits for
 * one of its provider's slots is checked again in the statement that starts its placement
 * (finding 7): cancelled, listed on the DNC list or out of its window meanwhile, it is never
 * dialed and spends no attempt.
 */
jest.setTimeout(60_000);

describe('dialer during a provider outage', () => {
  let t: TestApp;
  let twilio: TwilioFake;
  let plivo: PlivoFake;
  const clock = new TestClock();

  beforeAll(async () => {
    [twilio, plivo] = await Promise.all([TwilioFake.start(), PlivoFake.start()]);
    t = await startTestApp({
      env: {
        PROVIDER_ONE_API_URL: plivo.baseUrl,
        PROVIDER_TWO_API_URL: twilio.baseUrl,
        PUBLIC_BASE_URL: 'http://127.0.0.1:9',
        // The timer runs here: what an outage must not hold up is its next tick.
        DIALER_TICK_MS: '200',
        // Room for 32 calls in one organization: every Twilio placement slot of the process.
        DIALER_MAX_CONCURRENT_CALLS: '40',
        // A claim seconds before its window closes (the last-call margin would hold it): what is
        // checked is that the dial check still refuses the call once the window has closed.
        DIALER_LAST_CALL_MARGIN_SECONDS: '0',
      },
    });
    clock.install(t);
  });

  afterAll(async () => {
    // The hung requests end with the fakes; then the app's shutdown finds them settled.
    await Promise.all([twilio?.close(), plivo?.close()]);
    await t?.close();
  });

  /** A new organization's one-contact batch on Plivo: how long until its call reaches Plivo. */
  async function msUntilDialedOnPlivo(): Promise<number> {
    const since = Date.now();
    const b = await new DialerHarness(t, twilio).organization();
    const phone = await b.plivoNumber(plivo);
    const { numbers } = await b.batch(1, { callingNumbers: [phone.id] });
    await waitFor(
      () => plivo.calls.filter((call) => numbers.includes(`+${call.to}`)).length === 1,
      { timeoutMs: 8_000, what: "the other organization's call to be placed" },
    );
    return Date.now() - since;
  }

  it("dials another organization's batch on another provider while one provider hangs", async () => {
    // Organization A dials through Twilio, which answers no placement at all (one call: the
    // number's pacing slot does not come round on the test's stopped clock).
    twilio.stallNext(1, { method: 'POST', path: /\/Calls\.json$/ });
    const a = await new DialerHarness(t, twilio).organization();
    await a.batch(1);
    await waitFor(() => twilio.requestsTo('POST', /\/Calls\.json$/).length === 1, {
      timeoutMs: 10_000,
      what: "organization A's placement to reach the hanging provider",
    });
    // Organization B's batch starts now, on Plivo; placed while A's request still hangs (they
    // time out after 10 s): nothing waited for them.
    expect(await msUntilDialedOnPlivo()).toBeLessThan(8_000);
    expect(twilio.requestsTo('POST', /\/Calls\.json$/)).toHaveLength(1);
  });

  it("dials on another provider while one provider's recovery lookups hang", async () => {
    const a = await new DialerHarness(t, twilio).organization();
    const placed = await a.batch(1);
    const [log] = await waitFor(
      async () => {
        const logs = await a.logs(placed.batch.id);
        return logs[0]?.providerCallId ? logs : undefined;
      },
      { timeoutMs: 10_000, what: "organization A's placed call" },
    );
    const sid = log.providerCallId!;
    // Its callbacks never come; past its lease, recovery asks Twilio, which never answers.
    twilio.stallNext(10, { method: 'GET', path: sid });
    clock.advance(45 + 300 + 120 + 1);
    await waitFor(() => twilio.requestsTo('GET', sid).length > 0, {
      timeoutMs: 10_000,
      what: "recovery's lookup to reach the hanging provider",
    });
    // The lookup retries for 3 × 10 s: B's claim waited for none of it.
    expect(await msUntilDialedOnPlivo()).toBeLessThan(5_000);
    expect((await a.logs(placed.batch.id))[0].callStatus).toBe('queued');
  });

  describe('a claim waiting for a provider slot', () => {
    const SLOT_HELD_MS = 8_000;

    /** Every Twilio slot of the process (32) taken by placements answered `ms` late. */
    async function fillTwilioSlots(ms: number): Promise<SlowRequests> {
      const slow = twilio.delayNext(32, ms, { method: 'POST', path: /\/Calls\.json$/ });
      const busy = await new DialerHarness(t, twilio).organization();
      const ids: string[] = [];
      for (let i = 0; i < 32; i += 1) ids.push((await busy.number()).id);
      await busy.batch(32, { callingNumbers: ids });
      await waitFor(() => slow.inFlight === 32, {
        timeoutMs: 10_000,
        what: 'every Twilio slot to be taken',
      });
      return slow;
    }

    /**
     * Every Twilio slot taken, then a one-contact batch on Twilio whose claim is made and waits
     * for a slot (its organization is made first: a sign-up takes a while on a busy machine).
     */
    async function waitingClaim(overrides: Parameters<DialerHarness['batch']>[1] = {}) {
      const h = await new DialerHarness(t, twilio).organization();
      const slow = await fillTwilioSlots(SLOT_HELD_MS);
      const { batch, numbers } = await h.batch(1, overrides);
      await waitFor(async () => (await h.logs(batch.id)).length === 1, {
        timeoutMs: 5_000,
        what: 'the claim',
      });
      return { h, batch, numbers, slow };
    }

    const sentTo = (numbers: string[]) =>
      twilio
        .requestsTo('POST', /\/Calls\.json$/)
        .filter((r) => numbers.includes(String((r.body as Record<string, string>).To)));

    it('is never dialed when its batch is cancelled meanwhile', async () => {
      const { h, batch, numbers, slow } = await waitingClaim();
      await t.http
        .post(`/api/call/batches/${batch.id}/cancel`)
        .set({ Authorization: `Bearer ${h.admin.token}` })
        .expect(200);
      const [record] = await waitFor(
        async () => {
          const records = await h.records(batch.id);
          return records[0]?.status === 'canceled' ? records : undefined;
        },
        { timeoutMs: 20_000, what: 'the claim to be given back' },
      );
      // Checked once a slot came free, not before.
      expect(slow.answered).toBeGreaterThan(0);
      expect(record).toMatchObject({ attempts: 0, lastCallStatus: null });
      expect(await h.logs(batch.id)).toEqual([]);
      expect(sentTo(numbers)).toEqual([]);
    });

    it('is never dialed when its number is put on the DNC list meanwhile', async () => {
      const { h, batch, numbers } = await waitingClaim();
      await h.addDnc(numbers[0]);
      const [record] = await waitFor(
        async () => {
          const records = await h.records(batch.id);
          return records[0]?.status === 'do_not_call' ? records : undefined;
        },
        { timeoutMs: 20_000, what: 'the claim to be withdrawn' },
      );
      expect(record.attempts).toBe(0);
      expect(await h.logs(batch.id)).toEqual([]);
      expect(sentTo(numbers)).toEqual([]);
      expect(await h.batchRow(batch.id)).toMatchObject({ queueStatus: 'completed' });
    });

    it('is never dialed once its calling window closes meanwhile, and waits for the next one', async () => {
      // The batch's window closes at 15:00 UTC, ten seconds after the claim.
      clock.current = new Date('2026-03-04T14:59:50Z');
      const { h, batch, numbers } = await waitingClaim({
        timezone: 'UTC',
        callingHourStart: '09:00',
        callingHourEnd: '15:00',
      });
      clock.advance(20);
      const [record] = await waitFor(
        async () => {
          const records = await h.records(batch.id);
          return records[0]?.status === 'pending' && records[0].nextAttemptAt ? records : undefined;
        },
        { timeoutMs: 20_000, what: 'the claim to be given back and held' },
      );
      expect(record.attempts).toBe(0);
      expect(record.nextAttemptAt).toEqual(new Date('2026-03-05T09:00:00Z'));
      expect(await h.logs(batch.id)).toEqual([]);
      expect(sentTo(numbers)).toEqual([]);
    });
  });
});
