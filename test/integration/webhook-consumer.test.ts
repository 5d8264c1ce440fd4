import { randomBytes } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Webhook } from 'standardwebhooks';
import { createSwitchboardClient, type SwitchboardClient, unwrap } from '@app/client';
import { type CallEventType, signWebhook } from '@app/webhooks';
import { createConsumerApp } from '../../examples/webhook-consumer/src/create-app';
import type { ReceivedEvent } from '../../examples/webhook-consumer/src/received-events';
import { TwilioFake } from '../fakes';
import { DialerHarness } from '../support/dialer-harness';
import { type ListeningTestApp, startListeningTestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { TEST_TLS, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The example consumer (examples/webhook-consumer, built on @app/webhooks) against Switchboard's
 * real deliveries: a call placed through the fake provider raises signed call events, the
 * consumer's guard verifies them and keeps them typed; the same deliveries verify with the
 * standardwebhooks package directly; and a secret rotation keeps them flowing.
 */
jest.setTimeout(90_000);

const CALL_EVENTS = ['call.started', 'call.answered', 'call.completed'] as const;
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function suite(queue: 'bullmq' | 'in-process') {
  describe(`example webhook consumer (${queue} queue)`, () => {
    let twilio: TwilioFake;
    let receiver: WebhookReceiver;
    let consumer: NestExpressApplication;
    let consumerUrl: string;
    /** What the consumer accepts right now (its secrets option is a function). */
    let consumerSecrets: string[] = [];
    let t: ListeningTestApp;
    let h: DialerHarness;
    let client: SwitchboardClient;

    beforeAll(async () => {
      [twilio, receiver] = await Promise.all([TwilioFake.start(), WebhookReceiver.start()]);
      consumer = await createConsumerApp({
        webhooks: { secrets: () => consumerSecrets },
        httpsOptions: TEST_TLS,
        logger: false,
      });
      await consumer.listen(0, '127.0.0.1');
      consumerUrl = (await consumer.getUrl()).replace('[::1]', '127.0.0.1');
      t = await startListeningTestApp({
        redis: queue === 'bullmq',
        env: {
          VOICE_RUNTIME: 'off',
          PROVIDER_TWO_API_URL: twilio.baseUrl,
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        },
      });
      h = await new DialerHarness(t, twilio).organization();
      client = createSwitchboardClient({ baseUrl: t.baseUrl, token: h.admin.token });
    });
    afterAll(async () => {
      await twilio?.settled();
      await t?.close();
      await consumer?.close();
      await Promise.all([twilio?.close(), receiver?.close()]);
    });

    const received = async (): Promise<ReceivedEvent[]> => {
      const response = await fetch(`${consumerUrl}/switchboard/events`);
      return (await response.json()) as ReceivedEvent[];
    };
    const subscribe = async (url: string, secret: string, events: readonly CallEventType[]) =>
      (
        await unwrap(
          client.POST('/api/webhooks', {
            body: { name: 'consumer', url, events: [...events], secret },
          }),
        )
      ).data;

    it('receives a real call’s events verified and typed, and refuses forged ones', async () => {
      const secret = newSecret();
      consumerSecrets = [secret];
      const hook = await subscribe(`${consumerUrl}/switchboard/events`, secret, CALL_EVENTS);
      // The same deliveries to a plain receiver, to check them with standardwebhooks below.
      const rawPath = `/raw-${queue}`;
      await subscribe(receiver.url(rawPath), secret, CALL_EVENTS);

      twilio.autoProgress = () => 'completed';
      const { batch, numbers } = await h.batch(1);
      await waitFor(async () => (await h.tick(), (await h.logs(batch.id)).length === 1), {
        timeoutMs: 10_000,
        intervalMs: 100,
        what: 'the call to be placed',
      });
      const events = await waitFor(
        async () => {
          const all = await received();
          return all.length === CALL_EVENTS.length && all;
        },
        { timeoutMs: 20_000, intervalMs: 100, what: 'the consumer to receive the three events' },
      );

      const byType = new Map(events.map((received) => [received.event.type, received]));
      expect([...byType.keys()].sort()).toEqual([...CALL_EVENTS].sort());
      const [log] = await h.logs(batch.id);
      for (const { event } of events) {
        expect(event.data).toMatchObject({ call_id: log.id, batch_id: batch.id });
      }
      expect(
        events.map(({ event }) => ('sequence' in event.data ? event.data.sequence : 0)).sort(),
      ).toEqual([1, 2, 3]);
      // The consumer read each payload through its type (examples/…/received-events.ts).
      expect(byType.get('call.started')!.summary).toMatch(new RegExp(`^dialing \\${numbers[0]}`));
      // Twilio's machine detection is asynchronous: at the answer its verdict is not in yet.
      expect(byType.get('call.answered')!.summary).toBe(`${numbers[0]} answered (unknown)`);
      expect(byType.get('call.completed')!.summary).toMatch(/ s, ended by /);

      const { data: deliveries } = await unwrap(
        client.GET('/api/webhooks/{webhookId}/deliveries', {
          params: { path: { webhookId: hook._id } },
        }),
      );
      expect(deliveries.deliveries.map((delivery) => delivery.status)).toEqual(
        CALL_EVENTS.map(() => 'succeeded'),
      );

      // The plain receiver got the very same deliveries: standardwebhooks verifies each.
      const raw = await waitFor(
        () => receiver.at(rawPath).length === CALL_EVENTS.length && receiver.at(rawPath),
        { timeoutMs: 20_000, what: 'the plain receiver’s deliveries' },
      );
      for (const delivery of raw) {
        expect(new Webhook(secret).verify(delivery.body, delivery.headers)).toEqual(
          JSON.parse(delivery.body),
        );
        expect(() => new Webhook(newSecret()).verify(delivery.body, delivery.headers)).toThrow();
      }

      // A body signed with another secret, or altered, gets 401 and is not kept.
      const body = JSON.stringify(events[0].event);
      for (const [headers, sent] of [
        [
          signWebhook({ id: 'msg_forged', timestamp: new Date(), body, secrets: [newSecret()] }),
          body,
        ],
        [
          signWebhook({ id: 'msg_altered', timestamp: new Date(), body, secrets: [secret] }),
          body.replace(batch.id, 'x'.repeat(24)),
        ],
      ] as const) {
        const response = await fetch(`${consumerUrl}/switchboard/events`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: sent,
        });
        expect(response.status).toBe(401);
      }
      expect(await received()).toHaveLength(CALL_EVENTS.length);
    });

    it('keeps receiving through a secret rotation, on either side', async () => {
      const original = newSecret();
      consumerSecrets = [original];
      const hook = await subscribe(`${consumerUrl}/switchboard/events`, original, CALL_EVENTS);
      const rawPath = `/rotation-${queue}`;
      const rawHook = await subscribe(receiver.url(rawPath), original, CALL_EVENTS);
      const before = (await received()).length;
      const sendTest = async (webhookId: string) =>
        (
          await unwrap(
            client.POST('/api/webhooks/{webhookId}/test', { params: { path: { webhookId } } }),
          )
        ).data;
      const deliveryOf = async (webhookId: string, deliveryId: string) =>
        waitFor(
          async () => {
            const { data } = await unwrap(
              client.GET('/api/webhooks/{webhookId}/deliveries', {
                params: { path: { webhookId } },
              }),
            );
            const delivery = data.deliveries.find((candidate) => candidate._id === deliveryId);
            return delivery && delivery.attemptCount > 0 && delivery;
          },
          { timeoutMs: 20_000, what: 'the delivery to be attempted' },
        );
      const rotate = async (webhookId: string, gracePeriodSeconds: number) =>
        (
          await unwrap(
            client.POST('/api/webhooks/{webhookId}/secret/rotate', {
              params: { path: { webhookId } },
              body: { gracePeriodSeconds },
            }),
          )
        ).data.secret;

      // Switchboard rotates with a grace period: two signatures, the old one still accepted.
      const rotated = await rotate(hook._id, 3600);
      const rawRotated = await rotate(rawHook._id, 3600);
      const first = await sendTest(hook._id);
      expect((await deliveryOf(hook._id, first.deliveryId)).status).toBe('succeeded');
      await sendTest(rawHook._id);
      const [signedTwice] = await waitFor(
        () => receiver.at(rawPath).length === 1 && receiver.at(rawPath),
        {
          timeoutMs: 20_000,
          what: 'the test event at the plain receiver',
        },
      );
      expect(signedTwice.headers['webhook-signature'].split(' ')).toHaveLength(2);
      for (const secret of [original, rawRotated]) {
        expect(new Webhook(secret).verify(signedTwice.body, signedTwice.headers)).toMatchObject({
          type: 'webhook.test',
        });
      }

      // The consumer moves to the new secret alone.
      consumerSecrets = [rotated];
      const second = await sendTest(hook._id);
      expect((await deliveryOf(hook._id, second.deliveryId)).status).toBe('succeeded');

      // Rotated again without grace: a consumer still on the previous secret answers 401…
      const latest = await rotate(hook._id, 0);
      const third = await sendTest(hook._id);
      const refused = await deliveryOf(hook._id, third.deliveryId);
      expect(refused.status).not.toBe('succeeded');
      expect(refused.attempts[0]).toMatchObject({ responseStatus: 401 });

      // …and, given both secrets (its own rotation), takes the retried delivery.
      consumerSecrets = [latest, rotated];
      await unwrap(
        client.POST('/api/webhooks/{webhookId}/deliveries/{deliveryId}/retry', {
          params: { path: { webhookId: hook._id, deliveryId: third.deliveryId } },
        }),
      );
      await waitFor(
        async () => {
          const { data } = await unwrap(
            client.GET('/api/webhooks/{webhookId}/deliveries', {
              params: { path: { webhookId: hook._id } },
            }),
          );
          return data.deliveries.find((d) => d._id === third.deliveryId)?.status === 'succeeded';
        },
        { timeoutMs: 20_000, what: 'the retried delivery to succeed' },
      );
      const tests = (await received())
        .slice(before)
        .filter(({ event }) => event.type === 'webhook.test');
      expect(tests.map(({ event }) => event.data)).toEqual([
        expect.objectContaining({ webhook_id: hook._id }),
        expect.objectContaining({ webhook_id: hook._id }),
        expect.objectContaining({ webhook_id: hook._id }),
      ]);
    });
  });
}

suite('bullmq');
suite('in-process');
