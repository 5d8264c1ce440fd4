import { verifyWebhook } from '@app/webhooks';
import type { PhoneLogRow } from '../../src/modules/call-records/call-records.schema';
import { isFinal } from '../../src/modules/dialer/progress-rules';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import { type AutoOutcome, PlivoFake, TelnyxFake, TwilioFake } from '../fakes';
import { DialerHarness } from '../support/dialer-harness';
import { nanp, providerCases, type ProviderCase } from '../support/provider-cases';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { freePort } from '../support/free-port';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook } from '../support/webhook-factories';

/**
 * The whole loop, over real sockets: the dialer places calls at the fakes, the fakes walk each
 * call to its scripted outcome and POST signed callbacks to the listening app, the callbacks
 * move the phone logs, retries are dialed after their delay, the batch completes, and the
 * subscribed webhook receives every call's signed events in order.
 */
jest.setTimeout(90_000);

const CALL_EVENTS = ['call.started', 'call.answered', 'call.completed', 'call.failed'];
const GREETING = 'Hello from Acme, this is Ava about your renewal.';
const RETRY_DELAY_SECONDS = 2;

interface Delivered {
  type: string;
  data: Record<string, unknown> & { call_id: string; sequence: number };
}

function suite(queue: 'bullmq' | 'in-process', only?: Integration) {
  describe(`calls end to end (${queue} queue)`, () => {
    let plivo: PlivoFake;
    let twilio: TwilioFake;
    let telnyx: TelnyxFake;
    let receiver: WebhookReceiver;
    let t: TestApp;
    let h: DialerHarness;

    beforeAll(async () => {
      [plivo, twilio, telnyx, receiver] = await Promise.all([
        PlivoFake.start(),
        TwilioFake.start(),
        TelnyxFake.start(),
        WebhookReceiver.start(),
      ]);
      const port = await freePort();
      t = await startTestApp({
        redis: queue === 'bullmq',
        env: {
          PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
          // These fakes answer with the provider's speech verb; the media stream has its own suite
          // (voice-stream.test.ts), and this machine's speech engines would otherwise be ready.
          VOICE_RUNTIME: 'off',
          PROVIDER_ONE_API_URL: plivo.baseUrl,
          PROVIDER_TWO_API_URL: twilio.baseUrl,
          PROVIDER_THREE_API_URL: telnyx.baseUrl,
          PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          // A tick places the whole batch: pacing has its own tests.
          DIALER_CALLS_PER_SECOND: '50',
        },
      });
      await t.app.listen(port, '127.0.0.1');
      h = new DialerHarness(t, twilio);
    });
    afterAll(async () => {
      await Promise.all([plivo?.settled(), twilio?.settled(), telnyx?.settled()]);
      await t?.close();
      await Promise.all([plivo?.close(), twilio?.close(), telnyx?.close(), receiver?.close()]);
    });

    const integrations: Integration[] = ['provider_one', 'provider_two', 'provider_three'];
    for (const integration of integrations.filter((i) => !only || i === only)) {
      it(`${integration}: dials every contact, retries, completes and delivers each call's events`, async () => {
        const provider = providerCases({ plivo, twilio, telnyx })[integration];
        const admin = await registerOrganization(t.http);
        const auth = { Authorization: `Bearer ${admin.token}` };
        const phoneId = await addPhone(admin, provider);
        const agent = await t.http
          .post('/api/agents')
          .set(auth)
          .send({ agent_name: 'Ava', prompt: 'You offer the renewal.', greeting: GREETING })
          .expect(201);
        const hook = await createWebhook(t, admin, {
          url: receiver.url(`/hooks/${provider.integration}`),
          events: CALL_EVENTS,
        });

        // Scripted outcomes per callee, one per attempt.
        const [answers, busyThenAnswers, neverAnswers, optsOut] = ['212', '312', '415', '646'].map(
          nanp,
        );
        const script = new Map<string, AutoOutcome[]>([
          [answers, ['completed']],
          [busyThenAnswers, ['busy', 'completed']],
          [neverAnswers, ['no-answer', 'no-answer']],
          [optsOut, ['busy', 'completed']],
        ]);
        provider.fake().autoProgress = (to) => script.get(to)?.shift() ?? 'failed';
        const created = await t.http
          .post('/api/call/createBatch')
          .set(auth)
          .send({
            batchName: `End to end ${provider.integration}`,
            callingNumbers: [phoneId],
            agentId: agent.body.data._id,
            retry: 1,
            delay: RETRY_DELAY_SECONDS,
            // No callingHour and no callee-hours rule: the wall clock never holds the calls back.
            enforceCalleeLocalHours: false,
            contacts: [...script.keys()].map((phoneNumber, i) => ({ phoneNumber, name: `C${i}` })),
          })
          .expect(201);
        const batchId = created.body.data as string;
        const numberOf = new Map((await h.records(batchId)).map((r) => [r.id, r.phoneNumber]));
        const toOf = (log: PhoneLogRow) => numberOf.get(log.callRecordId);
        const dialedTo = (number: string) => provider.dialed().filter((to) => to === number);
        // Ticks as the scheduler does (a tick may find records another transaction holds).
        const tickUntil = (count: number, what: string) =>
          waitFor(async () => (await h.tick(), (await h.logs(batchId)).length >= count), {
            timeoutMs: 10_000,
            intervalMs: 100,
            what,
          });
        const settled = async (count: number) => {
          const logs = await waitFor(
            async () => {
              const logs = await h.logs(batchId);
              return logs.length === count && logs.every((log) => isFinal(log.callStatus)) && logs;
            },
            { timeoutMs: 15_000, what: `${count} attempts ended by their callbacks` },
          );
          await provider.fake().settled();
          return logs;
        };

        // First round: the scheduler's ticks dial all four callees once.
        await tickUntil(4, 'the first attempts to be dialed');
        const first = await settled(4);
        for (const number of script.keys()) expect(dialedTo(number)).toHaveLength(1);

        // The busy callee asks to be removed: the CRM adds the call to the do-not-call list.
        const optOutCall = first.find((log) => toOf(log) === optsOut)!;
        await t.http
          .post('/api/dnc/add')
          .set(auth)
          .send({ phoneNumber: optsOut, batchId, requestUUID: optOutCall.requestUuid })
          .expect(200);

        // Second round: the two retries, not before their delay, and nothing else.
        await tickUntil(6, 'the retries to be dialed');
        const all = await settled(6);
        for (let i = 0; i < 3; i += 1) await h.tick();
        expect(await h.logs(batchId)).toHaveLength(6);
        expect(dialedTo(answers)).toHaveLength(1);
        expect(dialedTo(busyThenAnswers)).toHaveLength(2);
        expect(dialedTo(neverAnswers)).toHaveLength(2);
        expect(dialedTo(optsOut)).toHaveLength(1);
        expect(new Set(all.map((log) => log.providerCallId)).size).toBe(6);

        const attemptsTo = (number: string) => all.filter((log) => toOf(log) === number);
        const [answered] = attemptsTo(answers);
        const [busy, answeredOnRetry] = attemptsTo(busyThenAnswers);
        const [unanswered, unansweredAgain] = attemptsTo(neverAnswers);
        for (const log of [answered, answeredOnRetry]) {
          expect(log).toMatchObject({
            callStatus: 'completed',
            answeredBy: 'human',
            leaseExpiresAt: null,
            ...provider.ended.completed,
          });
          const reported = provider.reportedDuration(log.providerCallId!);
          if (reported !== undefined) expect(log.callDuration).toBe(reported);
          expect(log.callDuration).toBeGreaterThanOrEqual(0);
          expect(log.endedAt!.getTime()).toBeGreaterThanOrEqual(log.answeredAt!.getTime());
          expect(provider.heard(log.providerCallId!)).toContain(GREETING);
        }
        const busyEnd = {
          callStatus: 'busy',
          callDuration: 0,
          answeredAt: null,
          ...provider.ended.busy,
        };
        const noAnswerEnd = {
          callStatus: 'no-answer',
          callDuration: 0,
          answeredAt: null,
          ...provider.ended['no-answer'],
        };
        expect(busy).toMatchObject({ ...busyEnd, attempt: 1 });
        expect(optOutCall).toMatchObject({ ...busyEnd, attempt: 1 });
        expect(answeredOnRetry.attempt).toBe(2);
        expect(unanswered).toMatchObject({ ...noAnswerEnd, attempt: 1 });
        expect(unansweredAgain).toMatchObject({ ...noAnswerEnd, attempt: 2 });
        for (const [ended, retried] of [
          [busy, answeredOnRetry],
          [unanswered, unansweredAgain],
        ]) {
          const due = ended.endedAt!.getTime() + RETRY_DELAY_SECONDS * 1000;
          expect(retried.createdAt.getTime()).toBeGreaterThanOrEqual(due);
        }
        expect(
          (await h.records(batchId)).map((r) => [r.phoneNumber, r.status, r.attempts]),
        ).toEqual(
          expect.arrayContaining([
            [answers, 'completed', 1],
            [busyThenAnswers, 'completed', 2],
            [neverAnswers, 'failed', 2],
            [optsOut, 'do_not_call', 1],
          ]),
        );
        const summary = await waitFor(
          async () => {
            const listed = await t.http
              .get(`/api/call/batches/${admin.userId}?limit=50`)
              .set(auth)
              .expect(200);
            const batch = (listed.body.data.batches as Array<Record<string, unknown>>).find(
              (b) => b._id === batchId,
            );
            return batch?.queue_status === 'completed' && batch;
          },
          { what: 'the batch to complete' },
        );
        expect(summary).toMatchObject({
          totalCalls: 4,
          callsPicked: 2,
          callsCompleted: 2,
          statusReason: null,
        });

        // Every call's events arrive signed, once each, in order (sequence 1..n per call).
        const expected = new Map<PhoneLogRow, string[]>([
          [answered, ['call.started', 'call.answered', 'call.completed']],
          [busy, ['call.started', 'call.failed']],
          [answeredOnRetry, ['call.started', 'call.answered', 'call.completed']],
          [unanswered, ['call.started', 'call.failed']],
          [unansweredAgain, ['call.started', 'call.failed']],
          [optOutCall, ['call.started', 'call.failed']],
        ]);
        const total = [...expected.values()].reduce((sum, types) => sum + types.length, 0);
        const deliveries = await waitFor(
          () => {
            const got = receiver.at(`/hooks/${provider.integration}`);
            return got.length >= total && got;
          },
          { timeoutMs: 20_000, what: `${total} webhook deliveries` },
        );
        expect(deliveries).toHaveLength(total);
        const events = deliveries.map((d) =>
          verifyWebhook<Delivered>(d.body, d.headers, hook.plainSecret),
        );
        for (const [log, types] of expected) {
          const ofCall = events.filter((e) => e.data.call_id === log.id);
          expect(ofCall.map((e) => [e.type, e.data.sequence])).toEqual(
            types.map((type, i) => [type, i + 1]),
          );
          expect(ofCall[0].data).toMatchObject({
            provider: provider.integration,
            batch_id: batchId,
            attempt: log.attempt,
            to_number: toOf(log),
            agent_id: agent.body.data._id,
          });
        }
        const failedOf = (log: PhoneLogRow) =>
          events.find((e) => e.data.call_id === log.id && e.type === 'call.failed')!.data;
        expect(failedOf(busy)).toMatchObject({ failure_reason: 'busy', will_retry: true });
        expect(failedOf(unanswered)).toMatchObject({
          failure_reason: 'no_answer',
          will_retry: true,
        });
        expect(failedOf(unansweredAgain)).toMatchObject({
          failure_reason: 'no_answer',
          will_retry: false,
          next_attempt_at: null,
        });
        expect(Date.parse(failedOf(busy).next_attempt_at as string)).toBe(
          busy.endedAt!.getTime() + RETRY_DELAY_SECONDS * 1000,
        );
      });
    }

    async function addPhone(admin: RegisteredAdmin, provider: ProviderCase): Promise<string> {
      const number = nanp('628');
      const added = await t.http
        .post('/api/call/add-phone')
        .set({ Authorization: `Bearer ${admin.token}` })
        .send({
          userId: admin.userId,
          phoneNumber: number,
          integration: provider.integration,
          ...provider.seed(number),
        })
        .expect(201);
      return added.body.data._id as string;
    }
  });
}

suite('bullmq');
suite('in-process');
