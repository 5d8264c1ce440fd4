import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { Database } from '../../src/database';
import { EventsService } from '../../src/modules/events/events.service';
import { WEBHOOK_CAP } from '../../src/modules/webhook-deliveries/delivery-admission';
import { webhookDeliveries } from '../../src/modules/webhook-deliveries/webhook-deliveries.schema';
import { registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook, raiseCallEvent } from '../support/webhook-factories';

jest.setTimeout(60_000);

/** More than the worker's 800 delivery slots: without admission X would hold them all. */
const X_EVENTS = 1_000;
/**
 * Y's bound: without admission its first delivery waits behind X's attempts until they time out
 * (15 s); with it, each took 20-45 ms here.
 */
const Y_BOUND_MS = 5_000;

describe('webhook fairness: a hanging endpoint of one organization does not stall another', () => {
  let t: TestApp;
  // Separate hosts (ports): each origin has its own sockets, as two tenants' endpoints would.
  let hangingReceiver: WebhookReceiver;
  let receiver: WebhookReceiver;
  let release = (): void => undefined;

  beforeAll(async () => {
    hangingReceiver = await WebhookReceiver.start();
    receiver = await WebhookReceiver.start();
    t = await startTestApp({ redis: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  });
  afterAll(async () => {
    release();
    await t.close();
    await hangingReceiver.close();
    await receiver.close();
  });

  it("keeps organization Y's deliveries flowing while X's endpoint hangs with a backlog", async () => {
    const x = await registerOrganization(t.http);
    const y = await registerOrganization(t.http);
    const released = new Promise<void>((resolve) => (release = resolve));
    hangingReceiver.script('/x', { status: 204, until: released });
    const hookX = await createWebhook(t, x, { url: hangingReceiver.url('/x') });
    await createWebhook(t, y, { url: receiver.url('/y') });

    const database = t.app.get(Database);
    const events = t.app.get(EventsService);
    for (let i = 0; i < X_EVENTS; i += 100) {
      await database.transaction(async () => {
        for (let j = i; j < i + 100; j += 1) {
          await events.raise(x.organizationId, {
            type: 'call.completed',
            callId: `x-${j}`,
            data: {} as never,
          });
        }
      });
    }
    await waitFor(() => hangingReceiver.at('/x').length > 0, { what: 'X to hang' });

    // Y's events, one after another, each delivered within the bound.
    for (let i = 0; i < 5; i += 1) {
      const event = await raiseCallEvent(t.app, y.organizationId, { callId: `y-${i}` });
      await waitFor(() => receiver.at('/y').some((r) => r.headers['webhook-id'] === event.id), {
        timeoutMs: Y_BOUND_MS,
        intervalMs: 10,
        what: `Y's delivery ${i}`,
      });
    }

    // X holds at most its share of slots; the rest were handed back as pending, no attempt used.
    const db = database.db;
    const xRows = and(
      eq(webhookDeliveries.webhookId, hookX.id),
      eq(webhookDeliveries.status, 'pending'),
    );
    const [{ leased }] = await db
      .select({ leased: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(and(xRows, gt(webhookDeliveries.leaseUntil, new Date())));
    expect(leased).toBeGreaterThan(0);
    const [{ deferred }] = await db
      .select({ deferred: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(
        and(
          xRows,
          isNull(webhookDeliveries.leaseUntil),
          eq(webhookDeliveries.attemptCount, 0),
          gt(webhookDeliveries.nextAttemptAt, new Date()),
        ),
      );
    // (A deferred one that is back and being claimed again is leased for that moment.)
    expect(deferred).toBeGreaterThanOrEqual(X_EVENTS - WEBHOOK_CAP - 100);
  });
});
