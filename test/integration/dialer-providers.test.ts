import { DialerScheduler } from '../../src/modules/dialer/dialer-scheduler';
import { PlivoFake, TelnyxFake, TwilioFake } from '../fakes';
import { DialerHarness, randomE164, TestClock } from '../support/dialer-harness';
import { startTestApp, type TestApp } from '../support/test-app';

/** Placement and lease recovery through Plivo and Telnyx (Twilio: dialer.test.ts). */
jest.setTimeout(60_000);

describe('dialer through each provider', () => {
  let t: TestApp;
  let twilio: TwilioFake;
  let plivo: PlivoFake;
  let telnyx: TelnyxFake;
  const clock = new TestClock();

  beforeAll(async () => {
    [twilio, plivo, telnyx] = await Promise.all([
      TwilioFake.start(),
      PlivoFake.start(),
      TelnyxFake.start(),
    ]);
    t = await startTestApp({
      env: {
        PROVIDER_ONE_API_URL: plivo.baseUrl,
        PROVIDER_TWO_API_URL: twilio.baseUrl,
        PROVIDER_THREE_API_URL: telnyx.baseUrl,
        // Callbacks of the fakes go nowhere (port 9 refuses): this file tests the dialer's side.
        PUBLIC_BASE_URL: 'http://127.0.0.1:9',
        DIALER_TICK_MS: '0',
      },
    });
    clock.install(t);
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([twilio?.close(), plivo?.close(), telnyx?.close()]);
  });

  const lease = 45 + 300 + 120 + 1;

  it('Plivo: places with the call in the URLs, then reconciles a queued, a live and an ended call', async () => {
    const h = await new DialerHarness(t, twilio).organization();
    const account = plivo.addAccount();
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) ids.push((await h.plivoNumber(plivo, account)).id);
    const { batch, numbers } = await h.batch(2, { callingNumbers: ids });
    await h.tick();
    const logs = await h.logs(batch.id);
    expect(logs).toHaveLength(2);
    const calls = plivo.calls.filter((call) => numbers.includes(`+${call.to}`));
    expect(calls).toHaveLength(2);
    for (const log of logs) {
      const call = plivo.call(log.providerCallId!);
      expect(call.answerUrl).toContain(`call=${log.id}`);
      expect(call.hangupUrl).toContain(`call=${log.id}`);
      // Asynchronous detection: the verdict is posted to the call's status URL.
      expect(call.params).toMatchObject({
        machine_detection: 'true',
        machine_detection_url: call.hangupUrl,
        machine_detection_method: 'POST',
      });
    }
    // Every callback is lost (they go nowhere): only Plivo's API tells. A dialed call is known
    // there by its CallUUID, never by the request_uuid placeCall returned.
    await plivo.advanceCall(logs[0].providerCallId!, 'ringing');
    await plivo.advanceCall(logs[0].providerCallId!, 'in-progress');
    await plivo.advanceCall(logs[0].providerCallId!, 'completed');
    clock.advance(lease);
    await h.tick();
    const [done, queued] = await h.logs(batch.id);
    expect(done).toMatchObject({
      callStatus: 'completed',
      endedReason: 'reconciled',
      providerStatus: 'Normal Hangup',
    });
    // The other call is still in Plivo's queue: alive, its lease extended.
    expect(queued.callStatus).toBe('queued');
    expect(queued.leaseExpiresAt!.getTime()).toBeGreaterThan(clock.current.getTime());

    await plivo.advanceCall(logs[1].providerCallId!, 'ringing');
    clock.advance(61);
    await h.tick();
    const ringing = (await h.logs(batch.id))[1];
    expect(ringing.callStatus).toBe('queued');
    expect(ringing.leaseExpiresAt!.getTime()).toBeGreaterThan(clock.current.getTime());
    const { callUuid } = plivo.call(logs[1].providerCallId!);
    const liveLookups = plivo.requestsTo('GET', `/v1/Account/${account.authId}/Call/${callUuid}/`);
    expect(liveLookups.map((r) => r.query)).toEqual([{ status: 'live' }]);

    await plivo.advanceCall(logs[1].providerCallId!, 'busy');
    clock.advance(61);
    await h.tick();
    expect((await h.logs(batch.id))[1]).toMatchObject({
      callStatus: 'busy',
      endedReason: 'reconciled',
      providerStatus: 'Busy Line',
    });
    expect(plivo.calls.filter((call) => numbers.includes(`+${call.to}`))).toHaveLength(2);
  });

  it('Telnyx: places on the app with client_state, reconciles a call that ended unseen', async () => {
    const h = await new DialerHarness(t, twilio).organization();
    const account = telnyx.addAccount();
    const [profile] = [...account.outboundVoiceProfiles.values()];
    const app = telnyx.addApplication(account, {
      applicationName: 'switchboard_test',
      webhookEventUrl: 'http://127.0.0.1:9/api/telephony/provider_three/x/status',
      outbound: { channelLimit: null, outboundVoiceProfileId: profile.id },
    });
    const ids: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const e164 = randomE164('+1415');
      const owned = telnyx.addNumber(account, e164, { connectionId: app.id });
      const phone = await h.storedNumber({
        e164,
        integration: 'provider_three',
        credentials: { accountId: app.id, secret: account.apiKey },
        providerNumberId: owned.id,
        providerAppId: app.id,
      });
      ids.push(phone.id);
    }
    const { batch } = await h.batch(2, { callingNumbers: ids });
    await h.tick();
    const logs = await h.logs(batch.id);
    expect(logs.map((log) => log.providerCallId)).toEqual([
      expect.stringMatching(/^v3:/),
      expect.stringMatching(/^v3:/),
    ]);
    for (const log of logs) {
      const call = telnyx.call(log.providerCallId!);
      expect(call.connectionId).toBe(app.id);
      expect(Buffer.from(call.clientState!, 'base64').toString()).toBe(log.id);
    }
    await telnyx.advanceCall(logs[0].providerCallId!, 'call.initiated');
    await telnyx.advanceCall(logs[0].providerCallId!, 'call.hangup', { hangup_cause: 'timeout' });
    clock.advance(lease);
    await h.tick();
    const [ended, alive] = await h.logs(batch.id);
    expect(ended).toMatchObject({ callStatus: 'failed', endedReason: 'reconciled' });
    expect(alive.callStatus).toBe('queued');
    expect(telnyx.calls.filter((call) => call.connectionId === app.id)).toHaveLength(2);
  });

  it('recovery asks the provider about expired leases 8 at a time, not one after another', async () => {
    // Three organizations of 8 calls each (10 live calls per organization, 1 call/s per number).
    const placed: string[] = [];
    for (let org = 0; org < 3; org += 1) {
      const h = await new DialerHarness(t, twilio).organization();
      const ids: string[] = [];
      for (let i = 0; i < 8; i += 1) ids.push((await h.number()).id);
      const { batch } = await h.batch(8, { callingNumbers: ids });
      await h.tick();
      const logs = await h.logs(batch.id);
      expect(logs.map((log) => log.providerCallId)).toEqual(logs.map(() => expect.any(String)));
      placed.push(...logs.map((log) => log.providerCallId!));
    }
    // Each lookup answers 300 ms late; the calls are still queued at the fake: alive.
    const slow = twilio.delayNext(placed.length, 300, { method: 'GET', path: /\/Calls\/CA/ });
    clock.advance(lease);
    const report = await t.app.get(DialerScheduler).tick();
    expect(report.recovery.alive).toBeGreaterThanOrEqual(placed.length);
    expect(slow.answered).toBe(placed.length);
    expect(slow.peak).toBe(8);
  });
});
