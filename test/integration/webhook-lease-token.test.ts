import { eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  DeliveryClaimsRepository,
} from '../../src/modules/webhook-deliveries/delivery-claims.repository';
import {
  webhookDeliveries,
  webhookDeliveryAttempts,
} from '../../src/modules/webhook-deliveries/webhook-deliveries.schema';
import { registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { createWebhook, raiseCallEvent } from '../support/webhook-factories';

jest.setTimeout(30_000);

const LEASE_MS = 30_000;

describe('delivery leases carry an owner token (real PostgreSQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Enqueue only (PROCESS_ROLE=api): no worker claims anything but the test.
    t = await startTestApp({
      redis: true,
      env: { PROCESS_ROLE: 'api', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.app.get(Database).db;
  const repository = () => t.app.get(DeliveryClaimsRepository);
  const rowOf = async (deliveryId: string) => {
    const [row] = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, deliveryId));
    return row;
  };
  const attemptsOf = (deliveryId: string) =>
    db()
      .select()
      .from(webhookDeliveryAttempts)
      .where(eq(webhookDeliveryAttempts.deliveryId, deliveryId));
  const claimAt = async (deliveryId: string, now: Date) => {
    const claimed = await repository().claim(
      [{ deliveryId, attemptNo: 1 }],
      now,
      new Date(now.getTime() + LEASE_MS),
    );
    return claimed.get(deliveryId);
  };
  const outcomeOf = (claimed: ClaimedDelivery, at: Date, succeeded: boolean): AttemptOutcome => ({
    deliveryId: claimed.id,
    webhookId: claimed.webhook.id,
    attemptNo: claimed.attemptNo,
    leaseToken: claimed.leaseToken,
    trigger: claimed.trigger,
    succeeded,
    url: claimed.webhook.url,
    responseStatus: succeeded ? 204 : 500,
    responseBody: '',
    durationMs: 5,
    errorClass: succeeded ? null : 'http_status',
    attemptedAt: at,
    status: succeeded ? 'succeeded' : 'pending',
    nextAttemptAt: succeeded ? null : new Date(at.getTime() + 5_000),
  });

  it("ignores the late write of a worker whose lease ran out, before and after the next holder's", async () => {
    const admin = await registerOrganization(t.http);
    await createWebhook(t, admin, { url: 'https://127.0.0.1:8443/hook' });
    const event = await raiseCallEvent(t.app, admin.organizationId);
    const [deliveryId] = event.deliveryIds;

    const t0 = new Date();
    const a = (await claimAt(deliveryId, t0))!;
    expect(a).toMatchObject({ status: 'sending', attemptNo: 1 });
    // While A's lease runs, nobody else gets the delivery.
    expect(await claimAt(deliveryId, new Date(t0.getTime() + 1_000))).toBeUndefined();

    // A stalls past its lease; B claims the same attempt with a fresh token.
    const t1 = new Date(t0.getTime() + LEASE_MS + 1_000);
    const b = (await claimAt(deliveryId, t1))!;
    expect(b).toMatchObject({ status: 'sending', attemptNo: 1 });
    expect(b.leaseToken).not.toBe(a.leaseToken);
    const leasedToB = await rowOf(deliveryId);

    // A's late failure while B is still sending: nothing changes, nothing is logged.
    await repository().recordOutcomes([outcomeOf(a, new Date(t1.getTime() + 100), false)]);
    expect(await rowOf(deliveryId)).toEqual(leasedToB);
    expect(await attemptsOf(deliveryId)).toEqual([]);

    // B's success is recorded.
    const bAt = new Date(t1.getTime() + 200);
    await repository().recordOutcomes([outcomeOf(b, bAt, true)]);
    const done = await rowOf(deliveryId);
    expect(done).toMatchObject({
      status: 'succeeded',
      attemptCount: 1,
      leaseUntil: null,
      lastAttemptAt: bAt,
    });
    expect((await attemptsOf(deliveryId)).map((row) => [row.attemptNo, row.succeeded])).toEqual([
      [1, true],
    ]);

    // A's late writes after B's: still nothing.
    await repository().recordOutcomes([outcomeOf(a, new Date(t1.getTime() + 300), true)]);
    await repository().recordOutcomes([outcomeOf(a, new Date(t1.getTime() + 400), false)]);
    expect(await rowOf(deliveryId)).toEqual(done);
    expect(await attemptsOf(deliveryId)).toHaveLength(1);
  });
});
