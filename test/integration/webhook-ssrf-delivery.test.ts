import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import {
  webhookDeliveries,
  webhookDeliveryAttempts,
} from '../../src/modules/webhook-deliveries/webhook-deliveries.schema';
import type { ResolvedAddress } from '../../src/modules/webhooks/ssrf';
import { registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook, insertWebhook, raiseCallEvent } from '../support/webhook-factories';

/** SSRF at delivery time: private targets are NOT allowed here (production setting). */
describe('webhook delivery refuses private targets at connect time', () => {
  let t: TestApp;
  let canary: WebhookReceiver;
  /** DNS rebinding: the name is public when the URL is saved, loopback when it is dialed. */
  let answers: ResolvedAddress[] = [{ address: '93.184.216.34', family: 4 }];
  const lookups: string[] = [];

  beforeAll(async () => {
    canary = await WebhookReceiver.start();
    t = await startTestApp({
      redis: true,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' },
      webhookDnsResolver: (hostname) => {
        lookups.push(hostname);
        return Promise.resolve(answers);
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await canary.close();
  });

  const attemptOf = async (eventId: string) => {
    const db = t.app.get(Database).db;
    return waitFor(
      async () => {
        const [delivery] = await db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.eventId, eventId));
        if (!delivery || delivery.attemptCount < 1) return undefined;
        const [attempt] = await db
          .select()
          .from(webhookDeliveryAttempts)
          .where(eq(webhookDeliveryAttempts.deliveryId, delivery.id));
        return { delivery, attempt };
      },
      { what: 'the first attempt' },
    );
  };

  it('a host name that rebinds to loopback after it was saved gets no connection', async () => {
    const admin = await registerOrganization(t.http);
    const url = canary.url('/hook', 'hooks.example.com');
    // Save time: the name resolves to a public address, so POST /api/webhooks accepts it.
    await createWebhook(t, admin, { url });
    answers = [{ address: '127.0.0.1', family: 4 }];
    const event = await raiseCallEvent(t.app, admin.organizationId);
    const { delivery, attempt } = await attemptOf(event.id);
    expect(attempt).toMatchObject({
      succeeded: false,
      errorClass: 'ssrf_blocked',
      responseStatus: null,
    });
    // Refused like any failure: retried on schedule (the name may become public again).
    expect(delivery.status).toBe('pending');
    expect(lookups).toContain('hooks.example.com');
    expect(canary.connections).toBe(0);
  });

  it('an IP-literal loopback URL (which never reaches lookup) gets no connection', async () => {
    const admin = await registerOrganization(t.http);
    // POST /api/webhooks refuses these (422); delivery must refuse them all the same.
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '2130706433']) {
      await insertWebhook(t.app, admin.organizationId, { url: canary.url('/hook', host) });
    }
    const event = await raiseCallEvent(t.app, admin.organizationId);
    await waitFor(
      async () => {
        const rows = await t.app
          .get(Database)
          .db.select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.eventId, event.id));
        return rows.length === 3 && rows.every((row) => row.attemptCount === 1);
      },
      { what: 'the three attempts' },
    );
    const attempts = await t.app.get(Database).db.select().from(webhookDeliveryAttempts);
    expect(attempts.filter((a) => a.errorClass === 'ssrf_blocked').length).toBeGreaterThanOrEqual(
      4,
    );
    expect(canary.connections).toBe(0);
  });
});
