import { eq, inArray } from 'drizzle-orm';
import { Clock } from '../../src/common/clock';
import { Database } from '../../src/database';
import { EventRetention } from '../../src/modules/events/event-retention';
import { events } from '../../src/modules/events/events.schema';
import {
  webhookDeliveries,
  webhookDeliveryAttempts,
} from '../../src/modules/webhook-deliveries/webhook-deliveries.schema';
import { registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook, raiseCallEvent } from '../support/webhook-factories';

const DAY_MS = 86_400_000;

describe('events, deliveries and attempts are kept WEBHOOK_RETENTION_DAYS once ended', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let clockOffsetMs = 0;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      redis: true,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETENTION_DAYS: '30' },
    });
    jest
      .spyOn(t.app.get(Clock), 'now')
      .mockImplementation(() => new Date(Date.now() + clockOffsetMs));
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('purges an old event whose deliveries ended and keeps one still being retried', async () => {
    const admin = await registerOrganization(t.http);
    // The first delivery succeeds; every later one gets 500 and stays pending for a retry.
    receiver.script('/retained', { status: 204 }, { status: 500 });
    await createWebhook(t, admin, { url: receiver.url('/retained') });
    const db = t.app.get(Database).db;
    const deliveryOf = async (eventId: string) =>
      (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)))[0];
    const ended = await raiseCallEvent(t.app, admin.organizationId, { callId: 'old-ended' });
    await waitFor(async () => (await deliveryOf(ended.id))?.status === 'succeeded', {
      what: 'the first delivery to succeed',
    });
    const retried = await raiseCallEvent(t.app, admin.organizationId, { callId: 'old-retried' });
    await waitFor(async () => (await deliveryOf(retried.id))?.attemptCount === 1, {
      what: 'the second delivery to fail once',
    });
    const endedDelivery = await deliveryOf(ended.id);
    const retention = t.app.get(EventRetention);

    clockOffsetMs = 29 * DAY_MS;
    expect(await retention.purge()).toBe(0);

    clockOffsetMs = 31 * DAY_MS;
    expect(await retention.purge()).toBe(1);
    const left = await db
      .select({ id: events.id })
      .from(events)
      .where(inArray(events.id, [ended.id, retried.id]));
    expect(left).toEqual([{ id: retried.id }]);
    expect(await deliveryOf(ended.id)).toBeUndefined();
    expect(
      await db
        .select()
        .from(webhookDeliveryAttempts)
        .where(eq(webhookDeliveryAttempts.deliveryId, endedDelivery.id)),
    ).toEqual([]);
    expect(await deliveryOf(retried.id)).toMatchObject({ status: 'pending' });
  });
});
