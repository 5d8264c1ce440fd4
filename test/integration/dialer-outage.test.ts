import { PlivoFake, TwilioFake } from '../fakes';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

/**
 * A provider outage slows nobody else (issue #12): while every placement request to one
 * provider hangs until its 10 s timeout, the scheduler's timer keeps ticking, so another
 * organization's batch on another provider is dialed within a tick or two.
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
      },
    });
    clock.install(t);
  });

  afterAll(async () => {
    // The hung requests end with the fakes; then the app's shutdown finds them settled.
    await Promise.all([twilio?.close(), plivo?.close()]);
    await t?.close();
  });

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
    const hangingSince = Date.now();

    // Organization B's batch starts now, on Plivo.
    const b = await new DialerHarness(t, twilio).organization();
    const phone = await b.plivoNumber(plivo);
    const { numbers } = await b.batch(1, { callingNumbers: [phone.id] });
    await waitFor(
      () => plivo.calls.filter((call) => numbers.includes(`+${call.to}`)).length === 1,
      { timeoutMs: 8_000, what: "organization B's call to be placed" },
    );
    // Placed while A's request still hangs (they time out after 10 s): nothing waited for them.
    expect(Date.now() - hangingSince).toBeLessThan(8_000);
    expect(twilio.requestsTo('POST', /\/Calls\.json$/)).toHaveLength(1);
  });
});
