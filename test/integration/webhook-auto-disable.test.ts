import { eq } from 'drizzle-orm';
import { Clock } from '../../src/common/clock';
import { Database } from '../../src/database';
import {
  webhookDeliveries,
  webhookDeliveryAttempts,
} from '../../src/modules/webhook-deliveries/webhook-deliveries.schema';
import { webhooks } from '../../src/modules/webhooks/webhooks.schema';
import { registerOrganization } from '../support/factories';
import { TestSmtpServer } from '../support/smtp-server';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook, raiseCallEvent } from '../support/webhook-factories';

describe('a webhook failing for 5 days is disabled and the admins are told', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let receiver: WebhookReceiver;
  let clockOffsetMs = 0;

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      redis: true,
      env: {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Switchboard <hooks@example.com>',
      },
    });
    jest
      .spyOn(t.app.get(Clock), 'now')
      .mockImplementation(() => new Date(Date.now() + clockOffsetMs));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await receiver.close();
  });

  it('switches it off with reason failing after >= 20 failures over 5 days without success', async () => {
    const admin = await registerOrganization(t.http);
    receiver.script('/down', { status: 503 });
    const hook = await createWebhook(t, admin, { url: receiver.url('/down') });
    const event = await raiseCallEvent(t.app, admin.organizationId);
    const db = t.app.get(Database).db;
    const delivery = await waitFor(
      async () => {
        const [row] = await db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.eventId, event.id));
        return row?.attemptCount === 1 ? row : undefined;
      },
      { what: 'the first failed attempt' },
    );
    // One failure is no reason to disable; 20 more from six days ago are.
    expect((await db.select().from(webhooks).where(eq(webhooks.id, hook.id)))[0].active).toBe(true);
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3_600_000);
    await db.insert(webhookDeliveryAttempts).values(
      Array.from({ length: 20 }, (_, i) => ({
        deliveryId: delivery.id,
        webhookId: hook.id,
        attemptNo: 100 + i,
        trigger: 'scheduled' as const,
        succeeded: false,
        url: hook.url,
        responseStatus: 503,
        durationMs: 5,
        errorClass: 'http_status' as const,
        attemptedAt: new Date(sixDaysAgo.getTime() + i * 60_000),
      })),
    );
    // The rule is checked at most every 10 minutes per webhook.
    clockOffsetMs += 11 * 60_000;
    await t.http
      .post(`/api/webhooks/${hook.id}/deliveries/${delivery.id}/retry`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(202);
    const disabled = await waitFor(
      async () => {
        const [row] = await db.select().from(webhooks).where(eq(webhooks.id, hook.id));
        return row.active ? undefined : row;
      },
      { what: 'the webhook to be disabled' },
    );
    expect(disabled.disabledReason).toBe('failing');
    const mail = await waitFor(
      () => smtp.messages.find((message) => message.text.includes(hook.id)),
      { what: 'the notice to the admins' },
    );
    expect(mail.envelope.to).toEqual([admin.email]);
    expect(mail.subject).toMatch(/disabled/);
  });
});
