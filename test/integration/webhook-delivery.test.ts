import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { Clock } from '../../src/common/clock';
import { Database } from '../../src/database';
import { EventsService } from '../../src/modules/events/events.service';
import { events } from '../../src/modules/events/events.schema';
import { DeliverWebhookHandler } from '../../src/modules/webhook-deliveries/deliver-webhook.handler';
import { DeliverySweeper } from '../../src/modules/webhook-deliveries/delivery-sweeper';
import {
  webhookCircuits,
  webhookDeliveries,
  webhookDeliveryAttempts,
} from '../../src/modules/webhook-deliveries/webhook-deliveries.schema';
import { webhooks } from '../../src/modules/webhooks/webhooks.schema';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook, raiseCallEvent, updateWebhook } from '../support/webhook-factories';

jest.setTimeout(40_000);

describe('webhook delivery (real HTTPS receiver, PostgreSQL and Redis)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: RegisteredAdmin;
  let clockOffsetMs = 0;
  let path = 0;
  const nextPath = () => `/hook-${++path}`;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await startTestApp({ redis: true, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    // Tests move time forward instead of waiting for it.
    jest
      .spyOn(t.app.get(Clock), 'now')
      .mockImplementation(() => new Date(Date.now() + clockOffsetMs));
  });
  // Each test its own organization: every active subscriber of an organization gets its events.
  beforeEach(async () => {
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const db = () => t.app.get(Database).db;
  const auth = () => ({ Authorization: `Bearer ${admin.token}` });
  const deliveryOf = async (eventId: string) => {
    const [row] = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, eventId));
    return row;
  };
  const attemptsOf = (deliveryId: string) =>
    db()
      .select()
      .from(webhookDeliveryAttempts)
      .where(eq(webhookDeliveryAttempts.deliveryId, deliveryId))
      .orderBy(webhookDeliveryAttempts.attemptNo);
  const settled = (eventId: string, status = 'succeeded', timeoutMs = 10_000) =>
    waitFor(
      async () => {
        const row = await deliveryOf(eventId);
        return row?.status === status ? row : undefined;
      },
      { timeoutMs, what: `the delivery of ${eventId} to be ${status}` },
    );
  // The handler switches a webhook off after it logged the attempt that asked for it (410).
  const switchedOff = (webhookId: string) =>
    waitFor(
      async () => {
        const [row] = await db().select().from(webhooks).where(eq(webhooks.id, webhookId));
        return row?.active === false ? row : undefined;
      },
      { what: `webhook ${webhookId} to be switched off` },
    );

  it('delivers a signed event that the standardwebhooks package verifies', async () => {
    const hookPath = nextPath();
    const hook = await createWebhook(t, admin, { url: receiver.url(hookPath) });
    const event = await raiseCallEvent(t.app, admin.organizationId, {
      callId: 'call-signed',
      data: { status: 'completed' },
    });
    await settled(event.id);
    const [received] = receiver.at(hookPath);
    expect(received.headers['webhook-id']).toBe(event.id);
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['user-agent']).toMatch(/^Switchboard-Webhooks\/\d/);
    const payload = new Webhook(hook.plainSecret).verify(received.body, received.headers) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    expect(payload).toEqual({
      type: 'call.completed',
      timestamp: event.occurredAt.toISOString(),
      data: {
        call_id: 'call-signed',
        sequence: 1,
        occurred_at: event.occurredAt.toISOString(),
        status: 'completed',
      },
    });
    expect(() =>
      new Webhook(hook.plainSecret).verify(`${received.body} `, received.headers),
    ).toThrow();
  });

  it('numbers the events of one call 1, 2, 3 and delivers only to subscribed, active webhooks', async () => {
    const [completedPath, startedPath, inactivePath] = [nextPath(), nextPath(), nextPath()];
    await createWebhook(t, admin, {
      url: receiver.url(completedPath),
      events: ['call.completed'],
    });
    await createWebhook(t, admin, {
      url: receiver.url(startedPath),
      events: ['call.started'],
    });
    await createWebhook(t, admin, {
      url: receiver.url(inactivePath),
      events: ['call.started', 'call.completed'],
      active: false,
    });
    const started = await raiseCallEvent(t.app, admin.organizationId, {
      type: 'call.started',
      callId: 'call-seq',
    });
    const completed = await raiseCallEvent(t.app, admin.organizationId, {
      type: 'call.completed',
      callId: 'call-seq',
    });
    expect([started.sequence, completed.sequence]).toEqual([1, 2]);
    expect(started.deliveryIds).toHaveLength(1);
    expect(completed.deliveryIds).toHaveLength(1);
    await settled(started.id);
    await settled(completed.id);
    expect(receiver.at(startedPath).map((r) => JSON.parse(r.body).type)).toEqual(['call.started']);
    expect(receiver.at(completedPath).map((r) => JSON.parse(r.body).type)).toEqual([
      'call.completed',
    ]);
    expect(receiver.at(inactivePath)).toHaveLength(0);
  });

  it('sends nothing to a webhook switched off or deleted before the attempt', async () => {
    const [offPath, deletedPath] = [nextPath(), nextPath()];
    const off = await createWebhook(t, admin, { url: receiver.url(offPath) });
    const deleted = await createWebhook(t, admin, {
      url: receiver.url(deletedPath),
    });
    // Same transaction as the event: the deliveries exist, then the webhooks change before
    // any job runs (jobs are queued after commit).
    const event = await t.app.get(Database).transaction(async () => {
      const raised = await t.app.get(EventsService).raise(admin.organizationId, {
        type: 'call.completed',
        callId: 'call-off',
        data: {} as never,
      });
      await updateWebhook(t.app, off.id, { active: false });
      await db().delete(webhooks).where(eq(webhooks.id, deleted.id));
      return raised;
    });
    expect(event.deliveryIds).toHaveLength(2);
    await settled(event.id, 'cancelled');
    expect(
      await db()
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, deleted.id)),
    ).toEqual([]);
    expect(receiver.at(offPath)).toHaveLength(0);
    expect(receiver.at(deletedPath)).toHaveLength(0);
  });

  it('raises nothing when the transaction rolls back, and refuses to raise outside one', async () => {
    const hookPath = nextPath();
    await createWebhook(t, admin, { url: receiver.url(hookPath) });
    let eventId = '';
    await expect(
      t.app.get(Database).transaction(async () => {
        eventId = (await raiseCallEvent(t.app, admin.organizationId)).id;
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(eventId).toMatch(/^msg_[0-9A-Z]{26}$/);
    expect(await db().select().from(events).where(eq(events.id, eventId))).toEqual([]);
    expect(await deliveryOf(eventId)).toBeUndefined();
    await expect(
      t.app.get(EventsService).raise(admin.organizationId, {
        type: 'call.completed',
        callId: 'c',
        data: {} as never,
      }),
    ).rejects.toThrow('inside Database.transaction()');
    // A later event reaches the receiver first and alone.
    const later = await raiseCallEvent(t.app, admin.organizationId);
    await settled(later.id);
    expect(receiver.at(hookPath).map((r) => r.headers['webhook-id'])).toEqual([later.id]);
  });

  it('retries a 500 on schedule and succeeds on the next 200, with the same webhook-id', async () => {
    const hookPath = nextPath();
    receiver.script(hookPath, { status: 500 }, { status: 200 });
    await createWebhook(t, admin, { url: receiver.url(hookPath) });
    const event = await raiseCallEvent(t.app, admin.organizationId);
    const delivery = await settled(event.id, 'succeeded', 15_000);
    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => [a.attemptNo, a.succeeded, a.responseStatus, a.errorClass])).toEqual(
      [
        [1, false, 500, 'http_status'],
        [2, true, 200, null],
      ],
    );
    // 5 s ± 20 % after the first attempt.
    const delay = attempts[0].nextAttemptAt!.getTime() - attempts[0].attemptedAt.getTime();
    expect(delay).toBeGreaterThanOrEqual(4_000);
    expect(delay).toBeLessThanOrEqual(6_000);
    const received = receiver.at(hookPath);
    expect(received).toHaveLength(2);
    expect(received[0].headers['webhook-id']).toBe(received[1].headers['webhook-id']);
    expect(received[1].at - received[0].at).toBeGreaterThanOrEqual(3_900);
  });

  it('honours Retry-After and waits at least 60 s after a 429', async () => {
    const [retryAfterPath, tooManyPath] = [nextPath(), nextPath()];
    receiver.script(retryAfterPath, { status: 503, headers: { 'retry-after': '120' } });
    receiver.script(tooManyPath, { status: 429 });
    await createWebhook(t, admin, { url: receiver.url(retryAfterPath) });
    await createWebhook(t, admin, { url: receiver.url(tooManyPath) });
    const first = await raiseCallEvent(t.app, admin.organizationId);
    const deliveries = await waitFor(
      async () => {
        const rows = await db()
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.eventId, first.id));
        return rows.length === 2 && rows.every((row) => row.attemptCount === 1) ? rows : undefined;
      },
      { what: 'both first attempts' },
    );
    const delays = new Map<string, number>();
    for (const row of deliveries) {
      const [attempt] = await attemptsOf(row.id);
      expect(row.status).toBe('pending');
      delays.set(
        attempt.responseStatus === 503 ? 'retry-after' : '429',
        attempt.nextAttemptAt!.getTime() - attempt.attemptedAt.getTime(),
      );
    }
    expect(delays.get('retry-after')).toBe(120_000);
    expect(delays.get('429')).toBe(60_000);
  });

  it('switches the webhook off on 410 Gone and sends it nothing more', async () => {
    const hookPath = nextPath();
    receiver.script(hookPath, { status: 410 });
    const hook = await createWebhook(t, admin, { url: receiver.url(hookPath) });
    const event = await raiseCallEvent(t.app, admin.organizationId);
    await settled(event.id, 'failed');
    const row = await switchedOff(hook.id);
    expect(row).toMatchObject({ active: false, disabledReason: 'gone' });
    expect(row.disabledAt).toBeInstanceOf(Date);
    const after = await raiseCallEvent(t.app, admin.organizationId);
    expect(after.deliveryIds).toEqual([]);
    expect(await deliveryOf(after.id).then((d) => d?.webhookId === hook.id)).toBeFalsy();
    expect(receiver.at(hookPath)).toHaveLength(1);
  });

  it('signs with both secrets during a rotation grace period', async () => {
    const hookPath = nextPath();
    const hook = await createWebhook(t, admin, { url: receiver.url(hookPath) });
    const oldSecret = hook.plainSecret;
    const rotated = await t.http
      .post(`/api/webhooks/${hook.id}/secret/rotate`)
      .set(auth())
      .send({ gracePeriodSeconds: 1 })
      .expect(200);
    const newSecret = rotated.body.data.secret as string;
    const graceEnds = Date.now() + 1_000;
    const event = await raiseCallEvent(t.app, admin.organizationId);
    await settled(event.id);
    const [received] = receiver.at(hookPath);
    expect(received.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(newSecret).verify(received.body, received.headers)).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(received.body, received.headers)).not.toThrow();
    // Once the grace period is over, only the new secret signs.
    await waitFor(() => Date.now() > graceEnds + 50, { what: 'the grace period to end' });
    const later = await raiseCallEvent(t.app, admin.organizationId);
    await settled(later.id);
    const last = receiver.at(hookPath)[1];
    expect(last.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(oldSecret).verify(last.body, last.headers)).toThrow();
    expect(() => new Webhook(newSecret).verify(last.body, last.headers)).not.toThrow();
  });

  describe('the deliveries API', () => {
    it('lists deliveries with their attempts, newest first, with filters', async () => {
      const hookPath = nextPath();
      receiver.script(hookPath, { status: 500 }, { status: 204 });
      const hook = await createWebhook(t, admin, {
        url: receiver.url(hookPath),
        events: ['call.started', 'call.completed'],
      });
      const first = await raiseCallEvent(t.app, admin.organizationId, { type: 'call.started' });
      await waitFor(async () => (await deliveryOf(first.id))?.attemptCount === 1, {
        what: 'the first attempt',
      });
      const second = await raiseCallEvent(t.app, admin.organizationId);
      await settled(second.id);
      const all = await t.http.get(`/api/webhooks/${hook.id}/deliveries`).set(auth()).expect(200);
      expect(all.body.data.pagination).toMatchObject({ total: 2, page: 1 });
      const [newest, oldest] = all.body.data.deliveries;
      expect(newest).toMatchObject({
        eventId: second.id,
        eventType: 'call.completed',
        status: 'succeeded',
        attemptCount: 1,
        nextAttemptAt: null,
      });
      expect(newest.attempts).toEqual([
        expect.objectContaining({
          attemptNo: 1,
          trigger: 'scheduled',
          status: 'succeeded',
          responseStatus: 204,
          errorClass: null,
        }),
      ]);
      expect(oldest).toMatchObject({ eventId: first.id, status: 'pending', attemptCount: 1 });
      expect(oldest.attempts[0]).toMatchObject({
        status: 'failed',
        responseStatus: 500,
        errorClass: 'http_status',
      });
      expect(Date.parse(oldest.nextAttemptAt)).toBeGreaterThan(
        Date.parse(oldest.attempts[0].attemptedAt),
      );
      expect(typeof oldest.attempts[0].durationMs).toBe('number');

      const filtered = await t.http
        .get(`/api/webhooks/${hook.id}/deliveries`)
        .query({ status: 'succeeded', eventType: 'call.completed' })
        .set(auth())
        .expect(200);
      expect(filtered.body.data.deliveries.map((d: { eventId: string }) => d.eventId)).toEqual([
        second.id,
      ]);
      const none = await t.http
        .get(`/api/webhooks/${hook.id}/deliveries`)
        .query({ since: new Date(Date.now() + 60_000).toISOString() })
        .set(auth())
        .expect(200);
      expect(none.body.data.deliveries).toEqual([]);
      await t.http
        .get(`/api/webhooks/${hook.id}/deliveries`)
        .query({ status: 'lost' })
        .set(auth())
        .expect(400);
    });

    it('re-sends one delivery now with trigger manual and the same webhook-id', async () => {
      const hookPath = nextPath();
      const hook = await createWebhook(t, admin, {
        url: receiver.url(hookPath),
      });
      const event = await raiseCallEvent(t.app, admin.organizationId);
      const delivery = await settled(event.id);
      await t.http
        .post(`/api/webhooks/${hook.id}/deliveries/${delivery.id}/retry`)
        .set(auth())
        .expect(202);
      await waitFor(async () => (await attemptsOf(delivery.id)).length === 2, {
        what: 'the manual attempt',
      });
      const attempts = await attemptsOf(delivery.id);
      expect(attempts.map((a) => [a.attemptNo, a.trigger, a.succeeded])).toEqual([
        [1, 'scheduled', true],
        [2, 'manual', true],
      ]);
      expect(receiver.at(hookPath).map((r) => r.headers['webhook-id'])).toEqual([
        event.id,
        event.id,
      ]);
    });

    it('shows an attempt in flight as sending and lets no second job send it until its lease is over', async () => {
      const hookPath = nextPath();
      let answer = () => undefined as void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      receiver.script(hookPath, { status: 204, until: answered });
      const hook = await createWebhook(t, admin, { url: receiver.url(hookPath) });
      const event = await raiseCallEvent(t.app, admin.organizationId);
      await waitFor(() => receiver.at(hookPath).length === 1, { what: 'the attempt in flight' });
      const delivery = await deliveryOf(event.id);
      const listed = (status: string) =>
        t.http
          .get(`/api/webhooks/${hook.id}/deliveries`)
          .query({ status })
          .set(auth())
          .expect(200)
          .then(
            (res) => (res.body as { data: { deliveries: Array<Record<string, unknown>> } }).data,
          );
      expect((await listed('sending')).deliveries).toEqual([
        expect.objectContaining({ _id: delivery.id, status: 'sending', nextAttemptAt: null }),
      ]);
      expect((await listed('pending')).deliveries).toEqual([]);
      await t.http
        .post(`/api/webhooks/${hook.id}/deliveries/${delivery.id}/retry`)
        .set(auth())
        .expect(409);

      // The same job again (as after a Redis restart): the lease turns it away.
      const handler = t.app.get(DeliverWebhookHandler);
      await handler.handle({ deliveryId: delivery.id, attempt: 1 });
      expect(receiver.at(hookPath)).toHaveLength(1);

      // Its worker is taken for dead once lease and grace are over: the sweeper takes it back
      // and the next job for that attempt sends it again.
      clockOffsetMs += 2 * 60_000;
      await t.app.get(DeliverySweeper).sweep();
      expect(await deliveryOf(event.id)).toMatchObject({ status: 'pending', leaseUntil: null });
      const again = handler.handle({ deliveryId: delivery.id, attempt: 1 });
      await waitFor(() => receiver.at(hookPath).length === 2, { what: 'the second send' });
      answer();
      await again;
      const done = await settled(event.id);
      expect(done).toMatchObject({ attemptCount: 1, leaseUntil: null });
      expect(receiver.at(hookPath).map((r) => r.headers['webhook-id'])).toEqual([
        event.id,
        event.id,
      ]);
    });

    it('recovers the deliveries that failed in a window', async () => {
      const hookPath = nextPath();
      receiver.script(hookPath, { status: 410 }, { status: 200 });
      const hook = await createWebhook(t, admin, {
        url: receiver.url(hookPath),
      });
      const since = new Date(Date.now() - 1000).toISOString();
      const event = await raiseCallEvent(t.app, admin.organizationId);
      await settled(event.id, 'failed');
      await switchedOff(hook.id);
      await t.http.patch(`/api/webhooks/${hook.id}`).set(auth()).send({ active: true }).expect(200);
      const answer = await t.http
        .post(`/api/webhooks/${hook.id}/recover`)
        .send({ since })
        .set(auth())
        .expect(202);
      expect(answer.body.data).toEqual({ queued: 1 });
      const delivery = await settled(event.id);
      expect((await attemptsOf(delivery.id)).map((a) => a.trigger)).toEqual([
        'scheduled',
        'recover',
      ]);
      // Nothing failed any more in that window.
      const again = await t.http
        .post(`/api/webhooks/${hook.id}/recover`)
        .send({ since })
        .set(auth())
        .expect(202);
      expect(again.body.data).toEqual({ queued: 0 });
    });

    it('sends a signed webhook.test event to that webhook only', async () => {
      const [hookPath, otherPath] = [nextPath(), nextPath()];
      const hook = await createWebhook(t, admin, {
        url: receiver.url(hookPath),
      });
      await createWebhook(t, admin, { url: receiver.url(otherPath) });
      const answer = await t.http.post(`/api/webhooks/${hook.id}/test`).set(auth()).expect(202);
      await settled(answer.body.data.eventId);
      const [received] = receiver.at(hookPath);
      const payload = new Webhook(hook.plainSecret).verify(received.body, received.headers) as {
        type: string;
      };
      expect(payload).toEqual({
        type: 'webhook.test',
        timestamp: expect.any(String),
        data: {
          webhook_id: hook.id,
          message: 'This is a test event from Switchboard.',
          occurred_at: expect.any(String),
        },
      });
      expect(receiver.at(otherPath)).toHaveLength(0);
    });

    it("answers 404 for another organization's webhook or delivery", async () => {
      const hook = await createWebhook(t, admin, {
        url: receiver.url(nextPath()),
      });
      const event = await raiseCallEvent(t.app, admin.organizationId);
      const delivery = await settled(event.id);
      const other = await registerOrganization(t.http);
      const as = { Authorization: `Bearer ${other.token}` };
      await t.http.get(`/api/webhooks/${hook.id}/deliveries`).set(as).expect(404);
      await t.http
        .post(`/api/webhooks/${hook.id}/deliveries/${delivery.id}/retry`)
        .set(as)
        .expect(404);
      await t.http
        .post(`/api/webhooks/${hook.id}/recover`)
        .send({ since: new Date(0).toISOString() })
        .set(as)
        .expect(404);
      await t.http.post(`/api/webhooks/${hook.id}/test`).set(as).expect(404);
      const mine = await createWebhook(t, other, {
        url: receiver.url(nextPath()),
      });
      await t.http
        .post(`/api/webhooks/${mine.id}/deliveries/${delivery.id}/retry`)
        .set(as)
        .expect(404);
    });
  });

  describe('circuit breaker', () => {
    it('holds deliveries while the endpoint is down, probes, then drains them on recovery', async () => {
      const hookPath = nextPath();
      receiver.script(hookPath, { status: 503 });
      const hook = await createWebhook(t, admin, {
        url: receiver.url(hookPath),
      });
      const failing = [];
      for (let i = 0; i < 12; i++) failing.push(await raiseCallEvent(t.app, admin.organizationId));
      await waitFor(
        async () => {
          const rows = await db()
            .select()
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.webhookId, hook.id));
          return rows.filter((row) => row.attemptCount >= 1 || row.status === 'held').length === 12;
        },
        { what: 'the first attempts' },
      );
      await waitFor(
        async () => {
          const [circuit] = await db()
            .select()
            .from(webhookCircuits)
            .where(eq(webhookCircuits.webhookId, hook.id));
          return circuit?.state === 'open';
        },
        { what: 'the circuit to open' },
      );
      // The circuit is open now: new deliveries are held without using an attempt.
      const held = [];
      for (let i = 0; i < 5; i++) held.push(await raiseCallEvent(t.app, admin.organizationId));
      for (const event of held) {
        const row = await settled(event.id, 'held');
        expect(row.attemptCount).toBe(0);
      }
      const sentWhileDown = receiver.at(hookPath).length;
      // The endpoint recovers; a minute later the sweeper sends one probe, which succeeds.
      receiver.script(hookPath, { status: 204 });
      clockOffsetMs += 61_000;
      const report = await t.app.get(DeliverySweeper).sweep();
      expect(report.probes).toBe(1);
      for (const event of [...failing, ...held]) await settled(event.id, 'succeeded', 20_000);
      // After recovery each of the 17 deliveries was sent once more, successfully.
      expect(receiver.at(hookPath).length - sentWhileDown).toBe(17);
      for (const event of held) {
        const row = await deliveryOf(event.id);
        expect(row.attemptCount).toBe(1);
      }
    });
  });
});
