import { asc, eq } from 'drizzle-orm';
import { Database } from '../../src/database';
import { batches, type BatchRow } from '../../src/modules/batches/batches.schema';
import {
  callRecords,
  phoneLogs,
  type PhoneLogRow,
} from '../../src/modules/call-records/call-records.schema';
import { events } from '../../src/modules/events/events.schema';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import {
  PlivoFake,
  TelnyxFake,
  TwilioFake,
  type CallbackDelivery,
  type DeliveryOptions,
  type HttpFake,
  twilioSignature,
} from '../fakes';
import { field } from '../fakes/http-fake';
import { unescapeXml } from '../fakes/media-stream-caller';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { freePort } from '../support/free-port';
import { LogCapture } from '../support/log-capture';
import { startTestApp, type TestApp } from '../support/test-app';
import { type PlacedCallOptions, placedCall as placeCall } from '../support/placed-call';
import { waitFor } from '../support/wait-for';
import { type CallSignal, CallSignals } from '../../src/modules/voice/session/call-signals';
import { WebhookReceiver } from '../support/webhook-receiver';
import { createWebhook } from '../support/webhook-factories';

jest.setTimeout(60_000);

const CALL_EVENTS = [
  'call.started',
  'call.answered',
  'call.completed',
  'call.failed',
  'call.recording.available',
];
const GREETING = 'Hello <Ada> & "friends" from Acme';
const VOICEMAIL = "Sorry we missed you: call Acme's desk back.";

/** One provider's fake, driven the same way for every scenario. */
interface Harness {
  integration: Integration;
  fake(): HttpFake;
  /** Seeds an account and number at the fake; returns the add-phone body. */
  seed(number: string): Record<string, string>;
  ring(id: string, options?: DeliveryOptions): Promise<unknown>;
  answer(id: string, machine?: boolean): Promise<unknown>;
  hangUp(id: string): Promise<unknown>;
  busy(id: string): Promise<unknown>;
  noAnswer(id: string): Promise<unknown>;
  replay(id: string): Promise<number>;
  recording(id: string): Promise<unknown>;
  /** What the answered call was told to say (the answer document, or Telnyx's speak text). */
  heard(id: string): string;
}

let sequence = 3000;
const nextNumber = () => `+1415556${(sequence += 1)}`;

async function resend(delivery: CallbackDelivery, url = delivery.url): Promise<number> {
  const response = await fetch(url, {
    method: delivery.method,
    headers: delivery.headers,
    body: delivery.method === 'POST' ? delivery.body : undefined,
  });
  await response.arrayBuffer();
  return response.status;
}

function suite(queue: 'bullmq' | 'in-process', only?: Integration) {
  describe(`provider callbacks (${queue} queue)`, () => {
    const logs = new LogCapture();
    let plivo: PlivoFake;
    let twilio: TwilioFake;
    let telnyx: TelnyxFake;
    let receiver: WebhookReceiver;
    let t: TestApp;
    let admin: RegisteredAdmin;

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
        logStream: logs,
        env: {
          LOG_LEVEL: 'info',
          PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
          // These fakes answer with the provider's speech verb; the media stream has its own suite
          // (voice-stream.test.ts), and this machine's speech engines would otherwise be ready.
          VOICE_RUNTIME: 'off',
          PROVIDER_ONE_API_URL: plivo.baseUrl,
          PROVIDER_TWO_API_URL: twilio.baseUrl,
          PROVIDER_THREE_API_URL: telnyx.baseUrl,
          PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        },
      });
      await t.app.listen(port, '127.0.0.1');
      admin = await registerOrganization(t.http);
      await createWebhook(t, admin, { url: receiver.url('/events'), events: CALL_EVENTS });
    });
    afterAll(async () => {
      await t?.close();
      await Promise.all([plivo?.close(), twilio?.close(), telnyx?.close(), receiver?.close()]);
    });

    const db = () => t.app.get(Database).db;
    const speakOf = (id: string) =>
      telnyx.call(id).actions.find((action) => action.action === 'speak')?.body as
        { payload: string; voice: string; language: string } | undefined;

    const harnesses: Harness[] = [
      {
        integration: 'provider_one',
        fake: () => plivo,
        seed(number) {
          const account = plivo.addAccount();
          plivo.addNumber(account, number);
          return { accSId: account.authId, authToken: account.authToken };
        },
        ring: (id, options) => plivo.advanceCall(id, 'ringing', {}, options),
        async answer(id, machine) {
          // Asynchronous detection: the answer first, the verdict posted after it.
          await plivo.advanceCall(id, 'in-progress');
          if (machine) await plivo.detectMachine(id, true);
        },
        hangUp: (id) => plivo.advanceCall(id, 'completed'),
        busy: (id) => plivo.advanceCall(id, 'busy'),
        noAnswer: (id) => plivo.advanceCall(id, 'timeout'),
        replay: (id) => plivo.replayLastCallback(id),
        recording(id) {
          const url = /callbackUrl="([^"]+)"/.exec(this.heard(id))?.[1];
          if (!url) throw new Error('the answer XML asked for no recording');
          return plivo.sendRecording(id, unescapeXml(url));
        },
        heard: (id) => plivo.call(id).answerFetch?.responseBody ?? '',
      },
      {
        integration: 'provider_two',
        fake: () => twilio,
        seed(number) {
          const account = twilio.addAccount();
          twilio.addNumber(account, number);
          return { accSId: account.sid, authToken: account.authToken };
        },
        ring: (id, options) => twilio.advanceCall(id, 'ringing', {}, options),
        async answer(id, machine) {
          const status = await twilio.advanceCall(id, 'in-progress');
          // AsyncAmd: the verdict is posted on its own, after the answer document.
          if (machine) await twilio.reportMachineDetection(id, 'machine_end_beep');
          return status;
        },
        hangUp: (id) => twilio.advanceCall(id, 'completed'),
        busy: (id) => twilio.advanceCall(id, 'busy'),
        noAnswer: (id) => twilio.advanceCall(id, 'no-answer'),
        replay: (id) => twilio.replayLastCallback(id),
        recording: (id) => twilio.sendRecording(id),
        heard: (id) => twilio.call(id).answerFetch?.responseBody ?? '',
      },
      {
        integration: 'provider_three',
        fake: () => telnyx,
        seed(number) {
          const account = telnyx.addAccount();
          telnyx.addNumber(account, number);
          return { accSId: '', authToken: account.apiKey };
        },
        ring: (id, options) => telnyx.advanceCall(id, 'call.initiated', {}, options),
        async answer(id, machine) {
          await telnyx.advanceCall(id, 'call.answered');
          // Telnyx's detection result follows the answer.
          if (machine)
            await telnyx.advanceCall(id, 'call.machine.detection.ended', { result: 'machine' });
          await waitFor(() => speakOf(id), { what: 'the speak command' });
        },
        async hangUp(id) {
          // The speech ends; Switchboard hangs up; Telnyx reports the hang-up.
          await telnyx.advanceCall(id, 'call.speak.ended');
          await waitFor(() => telnyx.call(id).hangupRequested, { what: 'the hangup command' });
          return telnyx.advanceCall(id, 'call.hangup', { hangup_source: 'caller' });
        },
        busy: (id) => telnyx.advanceCall(id, 'call.hangup', { hangup_cause: 'user_busy' }),
        noAnswer: (id) => telnyx.advanceCall(id, 'call.hangup', { hangup_cause: 'timeout' }),
        replay: (id) => telnyx.replayLastCallback(id),
        recording: (id) => telnyx.advanceCall(id, 'call.recording.saved'),
        heard: (id) => speakOf(id)?.payload ?? '',
      },
    ];

    /** A phone added through the API, a batch with one claimed attempt, and its placed call. */
    function placedCall(
      harness: Harness,
      batchValues: PlacedCallOptions['batch'] = {},
      agentValues: PlacedCallOptions['agent'] = {},
    ) {
      const number = nextNumber();
      return placeCall(t, admin, {
        integration: harness.integration,
        number,
        credentials: harness.seed(number),
        batch: batchValues,
        agent: { greeting: GREETING, voicemailMessage: VOICEMAIL, ...agentValues },
      });
    }

    const logOf = async (id: string): Promise<PhoneLogRow> =>
      (await db().select().from(phoneLogs).where(eq(phoneLogs.id, id)))[0];
    const recordOf = async (id: string) =>
      (await db().select().from(callRecords).where(eq(callRecords.id, id)))[0];
    const batchOf = async (id: string): Promise<BatchRow> =>
      (await db().select().from(batches).where(eq(batches.id, id)))[0];

    interface Delivered {
      type: string;
      data: Record<string, unknown> & { call_id: string; sequence: number };
    }
    const eventsOf = (callId: string): Delivered[] =>
      receiver
        .at('/events')
        .map((delivery) => JSON.parse(delivery.body) as Delivered)
        .filter((event) => event.data.call_id === callId)
        .sort((a, b) => a.data.sequence - b.data.sequence);
    const awaitEvents = (callId: string, count: number) =>
      waitFor(() => eventsOf(callId).length >= count && eventsOf(callId), {
        timeoutMs: 15_000,
        what: `${count} events of call ${callId}`,
      });
    const storedEvents = async (callId: string) =>
      (
        await db()
          .select({ type: events.type })
          .from(events)
          .where(eq(events.callId, callId))
          .orderBy(asc(events.sequence))
      ).map((row) => row.type);

    it('refuses an unverifiable answer callback in the JSON error envelope, not as XML', async () => {
      const call = await placedCall(harnesses[0]);
      const response = await t.http
        .post(`/api/telephony/provider_one/${call.phone.id}/answer?token=wrong&call=${call.log.id}`)
        .type('form')
        .send({ CallStatus: 'in-progress' })
        .expect(401);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toMatchObject({ status: false, code: 401 });
      await t.http.get('/api/telephony/provider_x/not-an-id/status?token=x').expect(401);
      expect(await logOf(call.log.id)).toMatchObject({ callStatus: 'queued', placedAt: null });
    });

    for (const harness of harnesses.filter((h) => !only || h.integration === only)) {
      describe(harness.integration, () => {
        it('moves an answered call to completed and delivers started, answered, completed in order', async () => {
          const call = await placedCall(harness);
          await harness.ring(call.id);
          await harness.answer(call.id);
          expect(unescapeXml(harness.heard(call.id))).toContain(GREETING);
          if (harness.integration !== 'provider_three') {
            expect(harness.heard(call.id)).toContain('Hello &lt;Ada&gt; &amp; &quot;friends&quot;');
            expect(harness.heard(call.id)).toMatch(/<Hangup\/><\/Response>$/);
          }
          await harness.hangUp(call.id);

          const log = await logOf(call.log.id);
          expect(log).toMatchObject({
            callStatus: 'completed',
            providerCallId: call.id,
            leaseExpiresAt: null,
          });
          expect(log.placedAt).not.toBeNull();
          expect(log.answeredAt!.getTime()).toBeGreaterThanOrEqual(log.placedAt!.getTime());
          expect(log.endedAt!.getTime()).toBeGreaterThanOrEqual(log.answeredAt!.getTime());
          expect(log.providerStatus).toBeTruthy();
          expect(log.endedReason).toBeTruthy();
          expect(await recordOf(call.record.id)).toMatchObject({
            status: 'completed',
            lastCallStatus: 'completed',
          });
          expect(await batchOf(call.batch.id)).toMatchObject({
            callsPicked: 1,
            callsCompleted: 1,
            queueStatus: 'completed',
          });

          const events = await awaitEvents(call.log.id, 3);
          expect(events.map((e) => [e.type, e.data.sequence])).toEqual([
            ['call.started', 1],
            ['call.answered', 2],
            ['call.completed', 3],
          ]);
          expect(events[0].data).toMatchObject({
            provider: harness.integration,
            request_uuid: call.log.requestUuid,
            batch_id: call.batch.id,
            call_record_id: call.record.id,
            attempt: 1,
            direction: 'outbound',
            from_number: call.phone.phoneNumber,
            to_number: call.record.phoneNumber,
            agent_id: call.log.agentId,
            variables: { name: 'Grace' },
          });
          expect(events[2].data).toMatchObject({
            status: 'completed',
            started_at: log.placedAt!.toISOString(),
            answered_at: log.answeredAt!.toISOString(),
            ended_at: log.endedAt!.toISOString(),
            duration_seconds: log.callDuration,
            recording_expected: false,
          });

          // A provider retry and a late ringing change nothing and raise nothing.
          expect(await harness.replay(call.id)).toBe(200);
          const ringing = harness
            .fake()
            .deliveries.find((d) => d.callId === call.id && d.kind === 'status');
          expect(await resend(ringing!)).toBe(200);
          expect(await logOf(call.log.id)).toEqual(log);
          expect(await storedEvents(call.log.id)).toEqual([
            'call.started',
            'call.answered',
            'call.completed',
          ]);
          expect(await batchOf(call.batch.id)).toMatchObject({ callsPicked: 1, callsCompleted: 1 });
        });

        if (queue === 'in-process') return;

        if (harness.integration === 'provider_two') {
          it('accepts a callback sent by GET (parameters in the signed query)', async () => {
            const call = await placedCall(harness);
            const twilioCall = twilio.call(call.id);
            const params = {
              CallSid: call.id,
              CallStatus: 'ringing',
              AccountSid: twilioCall.accountSid,
            };
            const url = `${field(twilioCall.params, 'StatusCallback')}&${new URLSearchParams(params).toString()}`;
            const authToken = twilio.account(twilioCall.accountSid).authToken;
            const get = (signature: string) =>
              fetch(url, { headers: { 'X-Twilio-Signature': signature } }).then((r) => r.status);
            expect(await get(twilioSignature(`${authToken}x`, url))).toBe(401);
            expect(await get(twilioSignature(authToken, url))).toBe(200);
            expect(await logOf(call.log.id)).toMatchObject({
              callStatus: 'ringing',
              providerStatus: 'ringing',
              providerCallId: call.id,
            });
          });
        }

        it('answers 401 to an unsigned, badly signed or wrong-token callback and changes nothing', async () => {
          const call = await placedCall(harness);
          await expect(harness.ring(call.id, { signature: 'invalid' })).resolves.toBe(401);
          await expect(harness.ring(call.id, { signature: 'missing' })).resolves.toBe(401);
          expect(await logOf(call.log.id)).toMatchObject({
            callStatus: 'queued',
            placedAt: null,
            providerStatus: null,
          });
          expect(await storedEvents(call.log.id)).toEqual([]);
          // The real callback goes through; the same bytes with another token do not (for
          // provider_three the signature does not cover the URL: the token alone refuses it).
          await expect(harness.ring(call.id)).resolves.toBe(200);
          const valid = harness
            .fake()
            .deliveries.filter((d) => d.callId === call.id)
            .at(-1)!;
          const wrongToken = valid.url.replace(
            `token=${encodeURIComponent(call.callbackToken)}`,
            'token=not-the-token',
          );
          expect(wrongToken).not.toBe(valid.url);
          expect(await resend(valid, wrongToken)).toBe(401);
          expect(await resend(valid)).toBe(200);
          expect(await storedEvents(call.log.id)).toEqual(['call.started']);
          const refusals = logs.lines.filter((line) => line.msg === 'Provider callback refused');
          expect(refusals.map((line) => line.reason)).toEqual(
            expect.arrayContaining(['bad signature', 'bad token']),
          );
          expect(logs.text).not.toContain(call.callbackToken);
          expect(logs.text).not.toContain(call.record.phoneNumber);
        });

        it('fails a busy call with the retry decision in call.failed (retry left)', async () => {
          const call = await placedCall(harness, { retry: 1, delay: 120 });
          await harness.ring(call.id);
          await harness.busy(call.id);
          const log = await logOf(call.log.id);
          expect(log).toMatchObject({ callStatus: 'busy', answeredAt: null, leaseExpiresAt: null });
          const record = await recordOf(call.record.id);
          expect(record).toMatchObject({ status: 'pending', lastCallStatus: 'busy' });
          expect(record.nextAttemptAt!.getTime()).toBe(log.endedAt!.getTime() + 120_000);
          const events = await awaitEvents(call.log.id, 2);
          expect(events.map((e) => e.type)).toEqual(['call.started', 'call.failed']);
          expect(events[1].data).toMatchObject({
            status: 'failed',
            failure_reason: 'busy',
            will_retry: true,
            next_attempt_at: record.nextAttemptAt!.toISOString(),
            duration_seconds: 0,
          });
          expect((await batchOf(call.batch.id)).callsPicked).toBe(0);
        });

        it("calls again only for the endings the batch's retryOn names", async () => {
          const call = await placedCall(harness, { retry: 2, retryOn: ['no_answer'] });
          await harness.ring(call.id);
          await harness.busy(call.id);
          expect(await recordOf(call.record.id)).toMatchObject({ status: 'failed' });
          const events = await awaitEvents(call.log.id, 2);
          expect(events[1].data).toMatchObject({ failure_reason: 'busy', will_retry: false });
        });

        it('calls a full mailbox again but never a fax line, by default', async () => {
          const outcomes = [
            ['mailbox_full', 'pending'],
            ['fax', 'failed'],
          ] as const;
          for (const [heard, status] of outcomes) {
            const call = await placedCall(harness, { retry: 1 });
            await harness.ring(call.id);
            await harness.answer(call.id, true);
            // What the voice session heard answer, as it records it.
            await t.app
              .get(PhoneLogsRepository)
              .recordAnswerOutcome(admin.organizationId, call.log.id, heard, 1_200, true);
            await harness.hangUp(call.id);
            expect(await logOf(call.log.id)).toMatchObject({
              callStatus: 'voicemail',
              answerOutcome: heard,
            });
            expect(await recordOf(call.record.id)).toMatchObject({ status });
            const failed = await waitFor(
              () => eventsOf(call.log.id).find((e) => e.type === 'call.failed') ?? false,
              { timeoutMs: 15_000, what: 'call.failed' },
            );
            expect(failed.data).toMatchObject({
              failure_reason: 'voicemail',
              answer_outcome: heard,
              answer_outcome_ms: 1_200,
              will_retry: status === 'pending',
            });
          }
        });

        it('fails an unanswered call for good when no retry is left', async () => {
          const call = await placedCall(harness, { retry: 0 });
          await harness.ring(call.id);
          await harness.noAnswer(call.id);
          expect((await logOf(call.log.id)).callStatus).toBe('no-answer');
          expect(await recordOf(call.record.id)).toMatchObject({ status: 'failed' });
          const events = await awaitEvents(call.log.id, 2);
          expect(events[1]).toMatchObject({
            type: 'call.failed',
            data: { failure_reason: 'no_answer', will_retry: false, next_attempt_at: null },
          });
        });

        it('leaves the voicemail message for a machine and ends the call as voicemail', async () => {
          const call = await placedCall(harness);
          const signals: CallSignal[] = [];
          const stop = t.app.get(CallSignals).listen(call.log.id, (s) => signals.push(s));
          await harness.ring(call.id);
          await harness.answer(call.id, true);
          // Every provider reports after the answer (Twilio with AsyncAmd, so a person who
          // picks up is never kept waiting): the live session is told (CallSignals).
          await waitFor(() => signals.includes('machine'), { what: 'the machine signal' });
          stop();
          await harness.hangUp(call.id);
          expect(await logOf(call.log.id)).toMatchObject({
            callStatus: 'voicemail',
            answeredBy: 'machine',
          });
          expect((await batchOf(call.batch.id)).callsPicked).toBe(0);
          const events = await awaitEvents(call.log.id, 3);
          expect(events.map((e) => e.type)).toEqual([
            'call.started',
            'call.answered',
            'call.failed',
          ]);
          expect(events[2].data).toMatchObject({ failure_reason: 'voicemail' });
        });

        it('raises call.recording.available once when the batch records calls', async () => {
          const call = await placedCall(harness, { recordCalls: true });
          await harness.ring(call.id);
          await harness.answer(call.id);
          if (harness.integration === 'provider_one')
            expect(harness.heard(call.id)).toMatch(/<Record [^>]*recordSession="true"/);
          await harness.hangUp(call.id);
          await harness.recording(call.id);
          const log = await logOf(call.log.id);
          expect(log.recordingUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
          expect(await harness.replay(call.id)).toBe(200);
          const events = await awaitEvents(call.log.id, 4);
          expect(events.map((e) => e.type)).toEqual([
            'call.started',
            'call.answered',
            'call.completed',
            'call.recording.available',
          ]);
          expect(events[2].data.recording_expected).toBe(true);
          expect(events[3].data).toMatchObject({ recording_url: log.recordingUrl });
          const expires = events[3].data.expires_at as string | null;
          if (harness.integration === 'provider_three') {
            // Ten minutes from the callback (the event's own time is taken a moment later).
            const validFor =
              Date.parse(expires!) - Date.parse(events[3].data.occurred_at as string);
            expect(validFor).toBeGreaterThan(590_000);
            expect(validFor).toBeLessThanOrEqual(600_000);
          } else {
            expect(expires).toBeNull();
          }
          expect(await storedEvents(call.log.id)).toHaveLength(4);
        });
      });
    }
  });
}

suite('bullmq');
suite('in-process', 'provider_two');
