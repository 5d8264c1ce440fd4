import { completeDialingBatches, type DialerApp, startDialerApp } from '../support/dialer-app';
import { DialerHarness, TestClock } from '../support/dialer-harness';
import { createApiKey, registerOrganization } from '../support/factories';
import { freePort } from '../support/free-port';
import { waitFor } from '../support/wait-for';
import { createWebhook } from '../support/webhook-factories';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one series of a scrape, or undefined when the scrape does not hold it. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each([
  ['BullMQ', true],
  ['in-process queue', false],
])('Prometheus metrics (%s)', (_driver, redis) => {
  let app: DialerApp;
  let receiver: WebhookReceiver;
  let metricsPort: number;
  const clock = new TestClock();

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    metricsPort = await freePort();
    app = await startDialerApp(
      {
        METRICS_TOKEN: TOKEN,
        METRICS_PORT: String(metricsPort),
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      },
      { redis },
    );
    clock.install(app.t);
  });
  afterEach(() => completeDialingBatches(app.t));
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
  });

  const scrape = async () =>
    (
      await app.t.http
        .get('/metrics')
        .set({ Authorization: `Bearer ${TOKEN}` })
        .expect(200)
    ).text;

  it('answers only the metrics token on the API port, in the common error envelope otherwise', async () => {
    const none = await app.t.http.get('/metrics').expect(401);
    expect(none.body).toMatchObject({ status: false, code: 401 });
    await app.t.http
      .get('/metrics')
      .set({ Authorization: 'Bearer wrong-token-0123456789' })
      .expect(401);
    await app.t.http.get('/metrics').set({ Authorization: TOKEN }).expect(401);
    const ok = await app.t.http
      .get('/metrics')
      .set({ Authorization: `Bearer ${TOKEN}` })
      .expect(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    expect(ok.text).toContain('process_resident_memory_bytes');
  });

  it('times requests by route template, never by the path a client sent', async () => {
    const admin = await registerOrganization(app.t.http);
    const id = '65f0c0ffee0123456789abcd';
    await app.t.http.get(`/api/agents/${id}`).set({ Authorization: `Bearer ${admin.token}` });
    await app.t.http.get(`/no-such-route/${id}`).expect(404);
    const text = await scrape();
    expect(text).toMatch(
      /switchboard_http_request_duration_seconds_count\{method="GET",route="\/api\/agents\/:id",status_code="404"\} [1-9]/,
    );
    expect(text).toMatch(
      /switchboard_http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1/,
    );
    expect(text).not.toContain(id);
  });

  it('counts jobs by outcome and reports queue depth per lane and state', async () => {
    const admin = await registerOrganization(app.t.http);
    const key = await createApiKey(app.t.http, admin.token);
    // Using a key queues a job that records its last use.
    await app.t.http.get('/api/agents').set({ 'x-api-key': key.key }).expect(200);
    const series =
      'switchboard_queue_job_duration_seconds_count{job="api-keys.record-use",outcome="completed"}';
    await waitFor(async () => ((sample(await scrape(), series) ?? 0) >= 1 ? true : undefined), {
      what: 'the api-key job to be counted',
    });
    const text = await scrape();
    for (const lane of ['jobs', 'webhook-deliveries'])
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(sample(text, `switchboard_queue_jobs{queue="${lane}",state="${state}"}`)).toEqual(
          expect.any(Number),
        );
  });

  it('counts webhook delivery attempts by outcome, with their latency', async () => {
    const admin = await registerOrganization(app.t.http);
    const hook = await createWebhook(app.t, admin, { url: receiver.url('/metrics-hook') });
    const before = sample(
      await scrape(),
      'switchboard_webhook_delivery_attempts_total{outcome="succeeded"}',
    );
    await app.t.http
      .post(`/api/webhooks/${hook.id}/test`)
      .set({ Authorization: `Bearer ${admin.token}` })
      .expect(202);
    const text = await waitFor(async () => {
      const now = await scrape();
      const count = sample(now, 'switchboard_webhook_delivery_attempts_total{outcome="succeeded"}');
      return (count ?? 0) > (before ?? 0) ? now : undefined;
    });
    expect(
      sample(text, 'switchboard_webhook_delivery_duration_seconds_count{outcome="succeeded"}'),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts calls placed per integration and live calls per status', async () => {
    const h = await new DialerHarness(app.t, app.twilio).organization();
    const placedBefore =
      sample(await scrape(), 'switchboard_calls_placed_total{integration="provider_two"}') ?? 0;
    const numbers = [(await h.number()).id, (await h.number()).id];
    const { batch } = await h.batch(2, { callingNumbers: numbers });
    expect(await h.tick()).toMatchObject({ placed: 2 });
    let text = await scrape();
    expect(sample(text, 'switchboard_calls_placed_total{integration="provider_two"}')).toBe(
      placedBefore + 2,
    );
    expect(sample(text, 'switchboard_calls_live{status="queued"}')).toBe(2);
    await h.endAll(batch.id, 'completed');
    text = await scrape();
    expect(sample(text, 'switchboard_calls_live{status="queued"}')).toBe(0);
  });

  it('serves the same scrape without a token on the internal METRICS_PORT listener', async () => {
    const answer = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toContain('switchboard_calls_live{status="queued"}');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  });
});

describe('metrics without a token', () => {
  let app: DialerApp;
  beforeAll(async () => {
    app = await startDialerApp();
  });
  afterAll(() => app?.close());

  it('has no /metrics on the API port (404), so an unset token never opens it', async () => {
    const answer = await app.t.http
      .get('/metrics')
      .set({ Authorization: 'Bearer anything-at-all-123' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: false, code: 404 });
  });
});
