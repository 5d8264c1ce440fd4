import { Clock } from '../../src/common/clock';
import { isFinal } from '../../src/modules/dialer/progress-rules';
import { TelnyxFake, TwilioFake } from '../fakes';
import { completeDialingBatches } from '../support/dialer-app';
import { DialerHarness, randomE164 } from '../support/dialer-harness';
import { freePort } from '../support/free-port';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * provider_three calls whose callbacks or commands fail (issue #28, finding 11), over real
 * sockets: the dialer places the call at the Telnyx fake, whose signed webhooks reach the
 * listening app. An answer whose Call Control command fails gets a bounded next step; a hang-up
 * that overtakes its answer, or a hang-up lost while Telnyx forgets the call, ends the attempt
 * `completed` and nobody who talked is dialed again.
 */
jest.setTimeout(60_000);

describe('provider_three callbacks and commands under faults', () => {
  let twilio: TwilioFake;
  let telnyx: TelnyxFake;
  let t: TestApp;
  /** The app's clock runs with the wall clock (Telnyx's occurred_at), moved on by this much. */
  let aheadMs = 0;

  beforeAll(async () => {
    [twilio, telnyx] = await Promise.all([TwilioFake.start(), TelnyxFake.start()]);
    const port = await freePort();
    t = await startTestApp({
      env: {
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        // The speech verb (speak): the media stream has its own suites.
        VOICE_RUNTIME: 'off',
        PROVIDER_TWO_API_URL: twilio.baseUrl,
        PROVIDER_THREE_API_URL: telnyx.baseUrl,
        PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
      },
    });
    await t.app.listen(port, '127.0.0.1');
    jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + aheadMs));
  });

  afterAll(async () => {
    await telnyx?.settled();
    await t?.close();
    await Promise.all([twilio?.close(), telnyx?.close()]);
  });

  // Ticks serve every organization: a test's retries must not be dialed in the next one.
  afterEach(async () => {
    telnyx.autoProgress = undefined;
    await completeDialingBatches(t);
  });

  /** An organization dialing one contact (retry 1, no delay) through a Telnyx number. */
  async function telnyxBatch() {
    const h = await new DialerHarness(t, twilio).organization();
    const account = telnyx.addAccount();
    const [profile] = [...account.outboundVoiceProfiles.values()];
    const app = telnyx.addApplication(account, {
      applicationName: `switchboard_${h.admin.organizationId}`,
      webhookEventUrl: `${t.config.http.publicBaseUrl}/unused`,
      outbound: { channelLimit: null, outboundVoiceProfileId: profile.id },
    });
    const e164 = randomE164('+1415');
    const owned = telnyx.addNumber(account, e164, { connectionId: app.id });
    const phone = await h.storedNumber({
      e164,
      integration: 'provider_three',
      credentials: { accountId: app.id, secret: account.apiKey },
      providerNumberId: owned.id,
      providerAppId: app.id,
    });
    const { batch, numbers } = await h.batch(1, {
      callingNumbers: [phone.id],
      retry: 1,
      delay: 0,
    });
    return { h, batch, numbers };
  }

  const ended = (h: DialerHarness, batchId: string) =>
    waitFor(
      async () => {
        const logs = await h.logs(batchId);
        return logs.length > 0 && logs.every((log) => isFinal(log.callStatus)) && logs;
      },
      { timeoutMs: 15_000, what: 'the attempt to end' },
    );
  const dialedTo = (numbers: string[]) => telnyx.calls.filter((call) => numbers.includes(call.to));

  it('an answer whose speak command fails is tried once more, then hung up and ended, saying why', async () => {
    const { h, batch } = await telnyxBatch();
    telnyx.failNext(2, 422, { method: 'POST', path: /\/actions\/speak$/ }, 'Call not answered');
    expect(await h.tick()).toMatchObject({ placed: 1 });
    const [placed] = await h.logs(batch.id);
    const id = placed.providerCallId!;
    await telnyx.advanceCall(id, 'call.initiated');
    await telnyx.advanceCall(id, 'call.answered');
    const [log] = await ended(h, batch.id);
    expect(log).toMatchObject({ callStatus: 'failed', endedReason: 'answer_command_failed' });
    expect(log.answeredAt).not.toBeNull();
    expect(telnyx.requestsTo('POST', `${encodeURIComponent(id)}/actions/speak`)).toHaveLength(2);
    expect(telnyx.call(id).hangupRequested).toBe(true);
    expect((await h.eventsOf(batch.id)).map((e) => e.type)).toEqual([
      'call.started',
      'call.answered',
      'call.failed',
    ]);
    // Telnyx's own hang-up that follows changes nothing.
    expect(await telnyx.advanceCall(id, 'call.hangup')).toBe(200);
    expect((await h.logs(batch.id))[0]).toMatchObject({ endedReason: 'answer_command_failed' });
  });

  it('a hang-up delivered before its answer ends the attempt completed, and nobody is dialed again', async () => {
    const { h, batch, numbers } = await telnyxBatch();
    telnyx.reorderCallbacks({ event: 'call.answered' }, { event: 'call.hangup' });
    telnyx.autoProgress = () => 'completed';
    expect(await h.tick()).toMatchObject({ placed: 1 });
    await telnyx.settled();
    const [placed] = await h.logs(batch.id);
    const sent = telnyx.deliveries.filter((d) => d.callId === placed.providerCallId);
    expect(sent.map((d) => [d.event, d.status])).toEqual([
      ['call.initiated', 200],
      ['call.machine.detection.ended', 200],
      ['call.hangup', 200],
      ['call.answered', 200],
    ]);
    const [log] = await ended(h, batch.id);
    expect(log).toMatchObject({ callStatus: 'completed', endedReason: 'normal_clearing' });
    // The late answer is recorded at the time Telnyx gives it, before the end.
    expect(log.answeredAt).not.toBeNull();
    expect(log.answeredAt!.getTime()).toBeLessThanOrEqual(log.endedAt!.getTime());
    const [record] = await h.records(batch.id);
    expect(record).toMatchObject({ status: 'completed', nextAttemptAt: null, attempts: 1 });
    expect(await h.batchRow(batch.id)).toMatchObject({
      queueStatus: 'completed',
      callsCompleted: 1,
      callsPicked: 1,
    });
    // No call.answered after the end; no command to a call that is over.
    expect((await h.eventsOf(batch.id)).map((e) => e.type)).toEqual([
      'call.started',
      'call.completed',
    ]);
    expect(telnyx.call(placed.providerCallId!).actions).toEqual([]);
    expect(await h.tick()).toMatchObject({ claimed: 0 });
    expect(dialedTo(numbers)).toHaveLength(1);
  });

  it('a lost hang-up of an answered call that Telnyx has since forgotten ends completed, not re-dialed', async () => {
    const { h, batch, numbers } = await telnyxBatch();
    telnyx.loseCallbacks(1, { event: 'call.hangup' });
    telnyx.autoProgress = () => 'completed';
    await h.tick();
    await telnyx.settled();
    const [answered] = await h.logs(batch.id);
    expect(answered.callStatus).toBe('in-progress');
    // Ten minutes after the end Telnyx answers 404 for the call; our lease ends later.
    telnyx.forgetCall(answered.providerCallId!);
    aheadMs += (45 + 300 + 120 + 1) * 1000;
    const report = await h.tick();
    expect(report.recovery.reconciled).toBeGreaterThanOrEqual(1);
    expect(report.claimed).toBe(0);
    const [log] = await h.logs(batch.id);
    expect(log).toMatchObject({ callStatus: 'completed', endedReason: 'reconciled' });
    expect((await h.records(batch.id))[0]).toMatchObject({ status: 'completed' });
    expect(dialedTo(numbers)).toHaveLength(1);
  });

  it('duplicated callbacks move the attempt once and raise each event once', async () => {
    const { h, batch } = await telnyxBatch();
    telnyx.duplicateCallbacks(10);
    telnyx.autoProgress = () => 'completed';
    await h.tick();
    await telnyx.settled();
    const [log] = await ended(h, batch.id);
    expect(log.callStatus).toBe('completed');
    expect(telnyx.deliveries.filter((d) => d.fault === 'duplicate').length).toBeGreaterThan(0);
    expect((await h.eventsOf(batch.id)).map((e) => e.type)).toEqual([
      'call.started',
      'call.answered',
      'call.completed',
    ]);
    // One speak for one answer (the second answer changes nothing).
    const speaks = telnyx.call(log.providerCallId!).actions.filter((a) => a.action === 'speak');
    expect(speaks).toHaveLength(1);
  });
});
