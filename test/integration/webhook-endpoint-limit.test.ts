import { and, eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { webhookDeliveries } from '../../src/modules/webhook-deliveries/webhook-deliveries.schema';
import { registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook, raiseCallEvent } from '../support/webhook-factories';

jest.setTimeout(40_000);

describe('a slow endpoint gets at most its share of attempts at once', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp({
      redis: true,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '2' },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('defers what is over the cap, keeps other endpoints flowing, and delivers the rest later', async () => {
    const admin = await registerOrganization(t.http);
    const auth = { Authorization: `Bearer ${admin.token}` };
    let answer = (): void => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    receiver.script('/slow', { status: 204, until: answered });
    const slow = await createWebhook(t, admin, { url: receiver.url('/slow') });
    await createWebhook(t, admin, { url: receiver.url('/fast') });
    const raised = [];
    for (let i = 0; i < 5; i += 1) {
      raised.push(await raiseCallEvent(t.app, admin.organizationId, { callId: `call-${i}` }));
    }

    // The fast endpoint gets all five while the slow one holds two; the other three wait
    // up to a second for a slot, then are handed back (pending) instead of holding a worker slot.
    await waitFor(() => receiver.at('/fast').length === 5, { what: 'the fast deliveries' });
    await waitFor(() => receiver.at('/slow').length === 2, { what: 'two slow attempts' });
    const statuses = await waitFor(
      async () => {
        const res = await t.http.get(`/api/webhooks/${slow.id}/deliveries`).set(auth).expect(200);
        const all = (res.body.data.deliveries as Array<{ status: string }>)
          .map((d) => d.status)
          .sort();
        return all.filter((status) => status === 'pending').length === 3 ? all : undefined;
      },
      { what: 'three deferred slow deliveries' },
    );
    expect(statuses).toEqual(['pending', 'pending', 'pending', 'sending', 'sending']);
    // A deferral comes back, finds the slots still taken and is deferred again: still two.
    const db = t.app.get(Database).db;
    const dueTimes = async () =>
      (
        await db
          .select({ id: webhookDeliveries.id, at: webhookDeliveries.nextAttemptAt })
          .from(webhookDeliveries)
          .where(
            and(eq(webhookDeliveries.webhookId, slow.id), eq(webhookDeliveries.status, 'pending')),
          )
      ).map((row) => [row.id, row.at?.getTime() ?? 0] as const);
    const firstDeferral = new Map(await dueTimes());
    await waitFor(
      async () => (await dueTimes()).some(([id, at]) => at > (firstDeferral.get(id) ?? at)),
      { what: 'a deferral to come back and be deferred again' },
    );
    expect(receiver.at('/slow')).toHaveLength(2);

    answer();
    await waitFor(
      () => new Set(receiver.at('/slow').map((r) => r.headers['webhook-id'])).size === 5,
      {
        timeoutMs: 20_000,
        what: 'every slow delivery',
      },
    );
    expect(new Set(receiver.at('/slow').map((r) => r.headers['webhook-id']))).toEqual(
      new Set(raised.map((event) => event.id)),
    );
    const after = await waitFor(
      async () => {
        const res = await t.http.get(`/api/webhooks/${slow.id}/deliveries`).set(auth).expect(200);
        const deliveries = res.body.data.deliveries as Array<{
          status: string;
          attempts: unknown[];
        }>;
        return deliveries.every((d) => d.status === 'succeeded') ? deliveries : undefined;
      },
      { what: 'the slow deliveries to succeed' },
    );
    // A deferral is not an attempt: one attempt each.
    expect(after.map((d) => d.attempts.length)).toEqual([1, 1, 1, 1, 1]);
  });
});
