/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { verifyWebhook } from '@app/webhooks';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '../../src/create-app';
import { TRANSFER_UNANSWERED_LINE } from '../../src/modules/call-progress/answer/answer-plan';
import { TRANSFER_FAILED } from '../../src/modules/voice/session/conversation-phrases';
import { CallSessions } from '../../src/modules/voice/session/call-sessions';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import { PlivoFake, TelnyxFake, TwilioFake } from '../fakes';
import { ChatFake, type ChatReply, type ReceivedChatRequest } from '../fakes/chat.fake';
import { type CallbackDelivery, type DeliveryOptions, field } from '../fakes/http-fake';
import {
  elementAttribute,
  MediaStreamCaller,
  plivoXmlStream,
  twimlStream,
} from '../fakes/media-stream-caller';
import { scriptedEngines } from '../fakes/scripted-engines';
import { ulawTone } from '../fakes/ulaw-tone';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { freePort } from '../support/free-port';
import { LogCapture } from '../support/log-capture';
import { placedCall } from '../support/placed-call';
import { providerCases } from '../support/provider-cases';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  answerToStream,
  hangupRequested,
  type ProviderFakes,
  streamCallerAudio,
} from '../support/voice-calls';
import { waitFor } from '../support/wait-for';
import { createWebhook, type TestWebhook } from '../support/webhook-factories';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const GREETING = 'Hello Grace, this is Ada from Acme.';
/** Long enough to still be playing when the machine verdict arrives. */
const LONG_GREETING = 'Hello Grace, this is Ada from Acme, with a long greeting.';
const VOICEMAIL = 'Sorry we missed you, Grace. Please call Acme back.';
const TRANSFER_TO = '+14155550199';
const TRANSFERRING = "I'm transferring you to a colleague now.";
const CALL_EVENTS = ['call.started', 'call.answered', 'call.transferred', 'call.completed'];
const ASK_FOR_PERSON = 'Can I talk to a person?';
const ASK_PRICE = 'Then tell me the price';
const MENU = 'Thank you for calling Acme. For sales, press 1. For billing, press 2.';

/**
 * The model, by the caller's last words: a person asked for → transfer_call. Decided per request
 * rather than scripted in order, so the post-call jobs of earlier calls take nothing away.
 */
function modelReply(request: ReceivedChatRequest): ChatReply {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  const said = last?.role === 'user' ? last.content : undefined;
  if (said === ASK_FOR_PERSON)
    return {
      kind: 'tool-calls',
      text: TRANSFERRING,
      calls: [{ name: 'transfer_call', arguments: { reason: 'asked for a person' } }],
    };
  if (said === ASK_PRICE) return { kind: 'text', pieces: ['Of course, let me help.'] };
  return { kind: 'text', pieces: ['OK.'] };
}

interface Delivered {
  type: string;
  data: Record<string, unknown> & { call_id: string; sequence: number };
}

const fixture = (name: string) =>
  readFileSync(path.join(__dirname, '..', 'fixtures', 'voice', name));

// One capture for both suites' apps: the second app's Pino logger keeps the first one's stream.
const logs = new LogCapture();

function suite(queue: 'bullmq' | 'in-process') {
  describe(`voice transfer and late machine verdicts (${queue} queue)`, () => {
    const transcripts: string[] = [];
    const spoken: string[] = [];
    let fakes: ProviderFakes;
    let chat: ChatFake;
    let receiver: WebhookReceiver;
    let t: TestApp;
    let admin: RegisteredAdmin;
    let hook: TestWebhook;
    let apiOnly: INestApplication | undefined;
    let sequence = queue === 'bullmq' ? 7100 : 7500;

    beforeAll(async () => {
      const [plivo, twilio, telnyx] = await Promise.all([
        PlivoFake.start(),
        TwilioFake.start(),
        TelnyxFake.start(),
      ]);
      fakes = { plivo, twilio, telnyx };
      [chat, receiver] = await Promise.all([ChatFake.start(), WebhookReceiver.start()]);
      chat.respond = modelReply;
      const port = await freePort();
      t = await startTestApp({
        redis: queue === 'bullmq',
        logStream: logs,
        // A sentence is 300 ms of tone; the long greeting 3 s.
        speechEngines: scriptedEngines(transcripts, spoken, (text) =>
          ulawTone(440, text === LONG_GREETING ? 3_000 : 300),
        ),
        env: {
          LOG_LEVEL: 'info',
          PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
          PROVIDER_ONE_API_URL: plivo.baseUrl,
          PROVIDER_TWO_API_URL: twilio.baseUrl,
          PROVIDER_THREE_API_URL: telnyx.baseUrl,
          PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
          LLM_API_URL: chat.url,
          LLM_API_KEY: 'test-key',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        },
      });
      await t.app.listen(port, '127.0.0.1');
      admin = await registerOrganization(t.http);
      hook = await createWebhook(t, admin, { url: receiver.url('/hooks'), events: CALL_EVENTS });
    });
    afterAll(async () => {
      await apiOnly?.close();
      await t?.close();
      await Promise.all([
        fakes?.plivo.close(),
        fakes?.twilio.close(),
        fakes?.telnyx.close(),
        chat?.stop(),
        receiver?.close(),
      ]);
    });

    /** A call placed and answered, its stream open and its greeting under way. */
    async function liveCall(
      integration: Integration,
      greeting = GREETING,
      agent: { onIvr?: 'navigate' | 'hang_up' } = {},
    ) {
      const number = `+1415558${(sequence += 1)}`;
      const call = await placedCall(t, admin, {
        integration,
        number,
        credentials: providerCases(fakes)[integration].seed(number),
        agent: {
          greeting,
          voicemailMessage: VOICEMAIL,
          transferNumber: TRANSFER_TO,
          voice: null,
          language: 'en-US',
          ...agent,
        },
      });
      const stream = await answerToStream(fakes, integration, call.id);
      const caller = await MediaStreamCaller.connect(integration, stream.url);
      caller.start(stream.callId, stream.token);
      return { call, caller, number };
    }

    /** Greeted, then the caller asks for a person and the model calls transfer_call. */
    async function askForPerson(integration: Integration) {
      const live = await liveCall(integration);
      await waitFor(() => live.caller.marks.some((mark) => mark.name === 'greeting-end'), {
        timeoutMs: 10_000,
        what: 'the greeting',
      });
      transcripts.push(ASK_FOR_PERSON);
      await streamCallerAudio(live.caller, fixture('hello-world.ulaw'));
      return live;
    }

    const phoneLog = (id: string) =>
      t.app.get(PhoneLogsRepository).findById(admin.organizationId, id);

    const eventsOf = (callId: string): Delivered[] =>
      receiver
        .at('/hooks')
        .map((d) => verifyWebhook<Delivered>(d.body, d.headers, hook.plainSecret))
        .filter((event) => event.data.call_id === callId)
        .sort((a, b) => a.data.sequence - b.data.sequence);

    /** The call's call.transferred, once delivered. */
    const transferredEvent = (callId: string) =>
      waitFor(() => eventsOf(callId).find((e) => e.type === 'call.transferred') ?? false, {
        timeoutMs: 10_000,
        what: 'call.transferred',
      });

    /** The transfer request the fake received, and the <Dial> document it fetched for it. */
    const transferAt: Record<
      Integration,
      (id: string) => Promise<{ to: string; dial?: string } | false>
    > = {
      provider_two: async (id) => {
        const redirect = fakes.twilio.call(id).redirects.at(0);
        if (!redirect) return false;
        // The <Dial> is a provider callback like the others: a bad signature gets nothing.
        expect((await fakes.twilio.fetchRedirect(id, { signature: 'invalid' })).status).toBe(401);
        const fetched = await fakes.twilio.fetchRedirect(id);
        expect(fetched.status).toBe(200);
        return { to: TRANSFER_TO, dial: fetched.responseBody };
      },
      provider_one: async (id) => {
        const transfer = fakes.plivo.call(id).transfers.at(0);
        if (!transfer) return false;
        expect(field(transfer, 'legs')).toBe('aleg');
        expect((await fakes.plivo.fetchTransfer(id, { signature: 'missing' })).status).toBe(401);
        const fetched = await fakes.plivo.fetchTransfer(id);
        expect(fetched.status).toBe(200);
        return { to: TRANSFER_TO, dial: fetched.responseBody };
      },
      provider_three: (id) => {
        const action = fakes.telnyx.call(id).actions.find((a) => a.action === 'transfer');
        const body = action?.body as { to: string } | undefined;
        return Promise.resolve(body ? { to: body.to } : false);
      },
    };

    /** The transfer's new party answers (Twilio: the <Number>'s status callback; Plivo: DialAction). */
    const dialedAnswered: Record<
      'provider_two' | 'provider_one',
      (id: string, options?: DeliveryOptions) => Promise<number>
    > = {
      provider_two: (id, options) => fakes.twilio.dialedAnswered(id, options),
      provider_one: (id, options) => fakes.plivo.dialedAnswered(id, options),
    };

    /** The transfer's <Dial> ends: its action gets the outcome and answers what comes next. */
    const dialEnded: Record<
      'provider_two' | 'provider_one',
      (
        id: string,
        outcome: 'completed' | 'no-answer' | 'busy',
        options?: DeliveryOptions & { callerHungUp?: boolean },
      ) => Promise<CallbackDelivery>
    > = {
      provider_two: (id, outcome, options) => fakes.twilio.dialEnded(id, outcome, options),
      provider_one: (id, outcome, options) => fakes.plivo.dialEnded(id, outcome, options),
    };

    /** Line silence in real time until the call is hung up (8 s at most): whether it was. */
    async function silenceUntilHangUp(
      caller: MediaStreamCaller,
      integration: Integration,
      id: string,
    ): Promise<boolean> {
      for (let chunk = 0; chunk < 400 && !hangupRequested(fakes, integration, id); chunk++) {
        caller.sendAudio(Buffer.alloc(160, 0xff));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return hangupRequested(fakes, integration, id);
    }

    /** What the provider does when the call leaves the stream: stop, then close. */
    async function providerEndsStream(caller: MediaStreamCaller) {
      caller.send({ event: 'stop' });
      caller.close();
      await caller.closed;
      await waitFor(() => t.app.get(CallSessions).size === 0, { what: 'the session to end' });
    }

    const integrations: Integration[] = ['provider_two', 'provider_one', 'provider_three'];
    for (const integration of integrations) {
      it(`${integration}: transfers the live call to the agent's transferNumber and raises call.transferred`, async () => {
        const { call, caller, number } = await askForPerson(integration);
        const transfer = await waitFor(() => transferAt[integration](call.id), {
          timeoutMs: 10_000,
          what: 'the transfer request at the provider',
        });
        expect(transfer.to).toBe(TRANSFER_TO);
        // Telnyx accepts the command, then dials: the transfer is made once the new leg answers.
        if (integration === 'provider_three')
          expect(await fakes.telnyx.transferLeg(call.id, 'answered')).toEqual([200, 200, 200]);
        // The caller heard the agent say so before the line changed.
        expect(spoken).toContain(TRANSFERRING);
        expect(caller.marks.map((mark) => mark.name)).toContain('reply-1-1');
        // The <Dial> reports its progress to transfer-status: the caller is never just dropped.
        const progressUrl = `/api/telephony/${integration}/${call.phone.id}/transfer-status?token=`;
        if (integration === 'provider_two') {
          expect(transfer.dial).toMatch(
            new RegExp(
              `<Dial action="[^"]+" method="POST" callerId="\\${number}" timeout="45">` +
                `<Number statusCallbackEvent="answered" statusCallback="[^"]+" statusCallbackMethod="POST">\\${TRANSFER_TO}</Number></Dial>`,
            ),
          );
          expect(elementAttribute(transfer.dial!, 'Number', 'statusCallback')).toBe(
            elementAttribute(transfer.dial!, 'Dial', 'action'),
          );
        }
        if (integration === 'provider_one') {
          expect(transfer.dial).toMatch(
            new RegExp(
              `<Dial action="[^"]+" method="POST" redirect="true" callbackUrl="[^"]+" callbackMethod="POST" ` +
                `callerId="${number.slice(1)}" timeout="45"><Number>${TRANSFER_TO.slice(1)}</Number></Dial>`,
            ),
          );
          expect(elementAttribute(transfer.dial!, 'Dial', 'callbackUrl')).toBe(
            elementAttribute(transfer.dial!, 'Dial', 'action'),
          );
        }
        if (transfer.dial && integration !== 'provider_three') {
          const action = elementAttribute(transfer.dial, 'Dial', 'action')!;
          expect(action).toContain(progressUrl);
          expect(new URL(action).searchParams.get('call')).toBe(call.log.id);
          // Asked, not made: nobody has answered yet.
          expect(await phoneLog(call.log.id)).toMatchObject({
            transferredTo: TRANSFER_TO,
            transferredAt: null,
          });
          expect(eventsOf(call.log.id).map((e) => e.type)).not.toContain('call.transferred');
          // The new party answers; a forged report of it counts for nothing.
          expect(await dialedAnswered[integration](call.id, { signature: 'invalid' })).toBe(401);
          expect(await dialedAnswered[integration](call.id)).toBe(200);
        }
        if (integration === 'provider_three') {
          const body = fakes.telnyx.call(call.id).actions.find((a) => a.action === 'transfer')!
            .body as Record<string, string>;
          // Telnyx gives up on the new leg when CallTransfers stops waiting for it.
          expect(body).toMatchObject({
            from: number,
            webhook_url_method: 'POST',
            timeout_secs: 45,
          });
          expect(Buffer.from(body.client_state, 'base64').toString()).toBe(call.log.id);
        }

        // The phone log and the subscriber learn of it; nobody hangs up.
        const transferred = await transferredEvent(call.log.id);
        expect(transferred.data).toMatchObject({
          transfer_to: TRANSFER_TO,
          transfer_type: 'cold',
          reason: 'asked for a person',
        });
        const details = await t.http
          .get(`/api/call/batch-details/${call.batch.id}`)
          .set({ Authorization: `Bearer ${admin.token}` })
          .expect(200);
        const [log] = (details.body as { data: { data: Array<{ phoneLogs: unknown[] }> } }).data
          .data[0].phoneLogs as Array<Record<string, unknown>>;
        expect(log).toMatchObject({ callStatus: 'in-progress', transferredTo: TRANSFER_TO });
        expect(log.transferredAt).toBe(transferred.data.transferred_at);
        expect(hangupRequested(fakes, integration, call.id)).toBe(false);
        await providerEndsStream(caller);
        expect(hangupRequested(fakes, integration, call.id)).toBe(false);

        if (integration === 'provider_three') {
          // The new leg's events reach the call's status URL too; even its failure changes nothing.
          const telnyxCall = fakes.telnyx.call(call.id);
          await fakes.telnyx.advanceCall(call.id, 'call.hangup', {
            call_control_id: 'v3:the-new-leg',
            hangup_cause: 'no_answer',
          });
          Object.assign(telnyxCall, { endedAt: undefined, state: 'answered' });
          expect(await phoneLog(call.log.id)).toMatchObject({ callStatus: 'in-progress' });
          await fakes.telnyx.advanceCall(call.id, 'call.hangup');
        } else {
          // The conversation with the colleague is over: the <Dial> ends and the call hangs up
          // (a repeated report of the answer changes nothing).
          const ended = await dialEnded[integration](call.id, 'completed');
          expect(ended.status).toBe(200);
          expect(ended.responseBody).toContain('<Hangup/>');
          if (integration === 'provider_one') await fakes.plivo.advanceCall(call.id, 'completed');
          else await fakes.twilio.advanceCall(call.id, 'completed');
        }
        // The colleague's conversation ends the call: completed, ended by the transfer.
        const events = await waitFor(
          () => {
            const got = eventsOf(call.log.id);
            return got.some((e) => e.type === 'call.completed') && got;
          },
          { timeoutMs: 10_000, what: 'call.completed' },
        );
        expect(events.map((e) => [e.type, e.data.sequence])).toEqual(
          CALL_EVENTS.map((type, i) => [type, i + 1]),
        );
        expect(events[3].data).toMatchObject({ ended_by: 'transfer' });
        expect(await phoneLog(call.log.id)).toMatchObject({
          callStatus: 'completed',
          transferredTo: TRANSFER_TO,
        });
      });

      it(`${integration}: apologises and carries on when the provider refuses the transfer`, async () => {
        const fake =
          fakes[
            integration === 'provider_one'
              ? 'plivo'
              : integration === 'provider_two'
                ? 'twilio'
                : 'telnyx'
          ];
        fake.failNext(1, 500, {
          method: 'POST',
          path:
            integration === 'provider_three' ? /actions\/transfer$/ : /\/Calls?\/[^/]+(\.json|\/)$/,
        });
        const { call, caller } = await askForPerson(integration);
        await waitFor(() => spoken.includes(TRANSFER_FAILED), {
          timeoutMs: 10_000,
          what: 'the apology',
        });
        await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
          timeoutMs: 10_000,
          what: 'the apology heard',
        });
        const log = (await phoneLog(call.log.id))!;
        expect(log).toMatchObject({ callStatus: 'in-progress', transferredTo: null });
        expect(log.turns.at(-1)).toMatchObject({ role: 'agent', text: TRANSFER_FAILED });
        expect(eventsOf(call.log.id).map((e) => e.type)).not.toContain('call.transferred');
        expect(hangupRequested(fakes, integration, call.id)).toBe(false);
        expect(caller.closeCode).toBeUndefined();
        const failure = logs.lines.find(
          (line) =>
            line.msg === 'Transfer through the provider failed' && line.call === call.log.id,
        );
        expect(failure).toMatchObject({ integration, kind: 'upstream', status: 500 });
        const { callbackToken } = call;
        expect(logs.text).not.toContain(callbackToken);
        // The conversation goes on: the next turn is answered without the tool.
        const requestsBefore = chat.requests.length;
        transcripts.push(ASK_PRICE);
        await streamCallerAudio(caller, fixture('opening-hours.ulaw'));
        await waitFor(() => chat.requests.length > requestsBefore, { what: 'the next request' });
        const tools = JSON.stringify(chat.requests.at(-1)!.body.tools ?? []);
        expect(tools).not.toContain('transfer_call');
        caller.close();
      });
    }

    for (const integration of ['provider_two', 'provider_one'] as const) {
      it(`${integration}: gives the caller back to the agent when no one answers the transfer`, async () => {
        const { call, caller } = await askForPerson(integration);
        await waitFor(() => transferAt[integration](call.id), {
          timeoutMs: 10_000,
          what: 'the transfer request and its <Dial>',
        });
        // The call left the stream for the <Dial>; the colleague's phone rings out.
        await providerEndsStream(caller);
        const ended = await dialEnded[integration](call.id, 'no-answer');
        expect(ended.status).toBe(200);
        // Not transferred, and said so nowhere.
        const log = (await phoneLog(call.log.id))!;
        expect(log).toMatchObject({
          callStatus: 'in-progress',
          transferredTo: null,
          transferredAt: null,
        });
        expect(eventsOf(call.log.id).map((e) => e.type)).not.toContain('call.transferred');
        expect(hangupRequested(fakes, integration, call.id)).toBe(false);
        // Our reply was lost on the way: the provider delivers the <Dial>'s end again, and is
        // answered again with a stream of its own (a token of its own: the first never used).
        const again = await dialEnded[integration](call.id, 'no-answer');
        expect(again.status).toBe(200);
        const streamOf = (reply: CallbackDelivery) =>
          integration === 'provider_two'
            ? { ...twimlStream(reply.responseBody), callId: call.id }
            : { ...plivoXmlStream(reply.responseBody), callId: fakes.plivo.call(call.id).callUuid };
        expect(streamOf(again).token).not.toBe(streamOf(ended).token);
        // The reply connects the caller to a new stream, where the agent says no one answered.
        const stream = streamOf(again);
        const back = await MediaStreamCaller.connect(integration, stream.url);
        back.start(stream.callId, stream.token);
        await waitFor(() => back.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
          timeoutMs: 10_000,
          what: 'the agent telling the caller no one answered',
        });
        expect(back.marks.map((mark) => mark.name)).not.toContain('greeting-end');
        expect((await phoneLog(call.log.id))!.turns.at(-1)).toMatchObject({
          role: 'agent',
          text: TRANSFER_FAILED,
        });
        // The conversation goes on where it was, and the transfer is not offered again.
        const requestsBefore = chat.requests.length;
        transcripts.push(ASK_PRICE);
        await streamCallerAudio(back, fixture('opening-hours.ulaw'));
        await waitFor(() => chat.requests.length > requestsBefore, { what: 'the next request' });
        const request = chat.requests.at(-1)!.body;
        const said = JSON.stringify(request.messages);
        for (const earlier of [GREETING, ASK_FOR_PERSON, TRANSFERRING, TRANSFER_FAILED, ASK_PRICE])
          expect(said).toContain(earlier);
        expect(JSON.stringify(request.tools ?? [])).not.toContain('transfer_call');
        await waitFor(() => back.marks.some((mark) => mark.name === 'reply-1-1'), {
          timeoutMs: 10_000,
          what: 'the answer heard on the new stream',
        });
        back.close();
      });
    }

    it('provider_two: a caller no one took, back at a process that cannot stream, hears an apology, not silence', async () => {
      const { call, caller } = await askForPerson('provider_two');
      await waitFor(() => transferAt.provider_two(call.id), { what: 'the <Dial>' });
      await providerEndsStream(caller);
      // The <Dial>'s end reaches another process of the platform, one without a voice runtime.
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // Kept open to the end of the suite: passport's strategies are process-wide, and the last
      // app to start serves every app's authentication.
      apiOnly = await createApp(
        { ...t.config, voice: { runtime: false }, http: { ...t.config.http, publicBaseUrl: base } },
        { logger: false },
      );
      await apiOnly.init();
      await apiOnly.listen(port, '127.0.0.1');
      const fetched = fakes.twilio.call(call.id).redirectFetch!;
      fetched.responseBody = fetched.responseBody.replaceAll(t.config.http.publicBaseUrl, base);
      const ended = await fakes.twilio.dialEnded(call.id, 'no-answer');
      expect(ended.status).toBe(200);
      expect(ended.responseBody).toBe(
        '<?xml version="1.0" encoding="UTF-8"?><Response>' +
          `<Say language="en-US">${TRANSFER_UNANSWERED_LINE.replace("'", '&apos;')}</Say>` +
          '<Hangup/></Response>',
      );
      expect(await phoneLog(call.log.id)).toMatchObject({
        callStatus: 'in-progress',
        transferredTo: null,
      });
    });

    it('provider_two: a caller who hung up while the transfer rang is not brought back', async () => {
      const { call, caller } = await askForPerson('provider_two');
      await waitFor(() => transferAt.provider_two(call.id), { what: 'the <Dial>' });
      await providerEndsStream(caller);
      const ended = await fakes.twilio.dialEnded(call.id, 'canceled', { callerHungUp: true });
      expect(ended.status).toBe(200);
      expect(ended.responseBody).toContain('<Hangup/>');
      expect(ended.responseBody).not.toContain('<Stream');
      expect(await phoneLog(call.log.id)).toMatchObject({
        transferredTo: null,
        transferredAt: null,
      });
    });

    it("provider_one: the <Dial>'s end records the transfer when the report of its answer was lost", async () => {
      const { call, caller } = await askForPerson('provider_one');
      await waitFor(() => transferAt.provider_one(call.id), { what: 'the <Dial>' });
      await providerEndsStream(caller);
      const ended = await dialEnded.provider_one(call.id, 'completed');
      expect(ended.responseBody).toContain('<Hangup/>');
      const transferred = await transferredEvent(call.log.id);
      expect(transferred.data).toMatchObject({
        transfer_to: TRANSFER_TO,
        reason: 'asked for a person',
      });
      expect(await phoneLog(call.log.id)).toMatchObject({ transferredTo: TRANSFER_TO });
    });

    it("provider_three: apologises and carries on when the transfer's new leg does not answer", async () => {
      const { call, caller } = await askForPerson('provider_three');
      await waitFor(() => transferAt.provider_three(call.id), {
        timeoutMs: 10_000,
        what: 'the transfer request at the provider',
      });
      // Telnyx accepted the command; the destination is busy.
      expect(await phoneLog(call.log.id)).toMatchObject({ transferredTo: TRANSFER_TO });
      expect(caller.marks.map((mark) => mark.name)).not.toContain('transfer-refused');
      await fakes.telnyx.transferLeg(call.id, 'failed');
      await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
        timeoutMs: 10_000,
        what: 'the apology heard',
      });
      const log = (await phoneLog(call.log.id))!;
      expect(log).toMatchObject({
        callStatus: 'in-progress',
        transferredTo: null,
        transferredAt: null,
      });
      expect(log.turns.at(-1)).toMatchObject({ role: 'agent', text: TRANSFER_FAILED });
      expect(hangupRequested(fakes, 'provider_three', call.id)).toBe(false);
      expect(caller.closeCode).toBeUndefined();
      expect(
        logs.lines.find(
          (line) =>
            line.msg === 'The transferred leg ended without answering' && line.call === call.log.id,
        ),
      ).toMatchObject({ integration: 'provider_three' });
      // The conversation goes on: the next turn is answered, without the tool.
      const requestsBefore = chat.requests.length;
      transcripts.push(ASK_PRICE);
      await streamCallerAudio(caller, fixture('opening-hours.ulaw'));
      await waitFor(() => chat.requests.length > requestsBefore, { what: 'the next request' });
      expect(JSON.stringify(chat.requests.at(-1)!.body.tools ?? [])).not.toContain('transfer_call');
      await waitFor(() => spoken.includes('Of course, let me help.'), { what: 'the answer' });
      expect(eventsOf(call.log.id).map((e) => e.type)).not.toContain('call.transferred');
      caller.close();
    });

    /** A live call greeted, then an automated menu speaks (4 s: longer than any person's hello). */
    async function menuAnswers(onIvr: 'navigate' | 'hang_up') {
      const live = await liveCall('provider_one', GREETING, { onIvr });
      await waitFor(() => live.caller.marks.some((mark) => mark.name === 'greeting-end'), {
        timeoutMs: 10_000,
        what: 'the greeting',
      });
      transcripts.push(MENU);
      await streamCallerAudio(
        live.caller,
        Buffer.concat([fixture('call-back.ulaw'), fixture('number-digits.ulaw')]),
      );
      return live;
    }

    it('provider_one: an automated menu is hung up on when the agent is told to (onIvr hang_up)', async () => {
      const requestsBefore = chat.requests.length;
      const { call, caller } = await menuAnswers('hang_up');
      expect(await silenceUntilHangUp(caller, 'provider_one', call.id)).toBe(true);
      expect(await phoneLog(call.log.id)).toMatchObject({
        answerOutcome: 'ivr',
        sessionEndedBy: 'agent',
      });
      // Nothing was said to the menu.
      const asked = chat.requests.slice(requestsBefore);
      expect(asked.some((request) => JSON.stringify(request.body).includes('For sales'))).toBe(
        false,
      );
    });

    it('provider_one: an automated menu is navigated by the model, told it hears one (onIvr navigate)', async () => {
      const { call, caller } = await menuAnswers('navigate');
      const request = await waitFor(
        () =>
          chat.requests.find((candidate) => JSON.stringify(candidate.body).includes('For sales')) ??
          false,
        { timeoutMs: 10_000, what: 'the model asked about the menu' },
      );
      const [system] = request.body.messages as Array<{ role: string; content: string }>;
      expect(system.content).toContain('An automated phone menu answered this call');
      expect(await phoneLog(call.log.id)).toMatchObject({ answerOutcome: 'ivr' });
      expect(hangupRequested(fakes, 'provider_one', call.id)).toBe(false);
      caller.close();
    });

    it('provider_two: a voicemail the provider calls unknown is told by its greeting, and gets the message after its beep', async () => {
      const { call, caller } = await liveCall('provider_two');
      expect(await fakes.twilio.reportMachineDetection(call.id, 'unknown')).toBe(200);
      // "…please leave a message after the tone", then its beep and the recording's silence.
      transcripts.push("Hi, you've reached Grace. Please leave a message after the tone.");
      await streamCallerAudio(caller, fixture('opening-hours.ulaw'), 600);
      const beforeBeep = caller.frames.length;
      const beepAt = performance.now();
      await streamCallerAudio(caller, ulawTone(1_000, 300), 0);
      expect(await silenceUntilHangUp(caller, 'provider_two', call.id)).toBe(true);
      // The message played after the beep, and nothing was answered to the machine.
      expect(caller.marks.map((mark) => mark.name)).toContain('voicemail-end');
      const message = caller.frames.slice(beforeBeep);
      expect(message.length).toBeGreaterThanOrEqual(15);
      expect(message[0].at).toBeGreaterThanOrEqual(beepAt);
      expect(spoken.at(-1)).toBe(VOICEMAIL);
      expect(await phoneLog(call.log.id)).toMatchObject({
        answeredBy: 'machine',
        answerOutcome: 'voicemail',
        sessionEndedBy: 'voicemail',
      });
      await fakes.twilio.advanceCall(call.id, 'completed');
      expect(await phoneLog(call.log.id)).toMatchObject({ callStatus: 'voicemail' });
      const details = await t.http
        .get(`/api/call/batch-details/${call.batch.id}`)
        .set({ Authorization: `Bearer ${admin.token}` })
        .expect(200);
      const [log] = (details.body as { data: { data: Array<{ phoneLogs: unknown[] }> } }).data
        .data[0].phoneLogs as Array<Record<string, unknown>>;
      expect(log).toMatchObject({ callStatus: 'voicemail', answerOutcome: 'voicemail' });
      expect(log.answerOutcomeMs).toEqual(expect.any(Number));
    });

    it('provider_two: a fax machine AsyncAmd reports is hung up on, and hears no voicemail message', async () => {
      const { call, caller } = await liveCall('provider_two', LONG_GREETING);
      // The verdict on a live call (one that comes while the stream is still loading is hung up
      // by the silent opening, recorded as the agent's ending: see the closing note).
      await waitFor(() => caller.frames.length > 0, { what: 'the greeting under way' });
      const voicemailsBefore = spoken.filter((text) => text === VOICEMAIL).length;
      expect(await fakes.twilio.reportMachineDetection(call.id, 'fax')).toBe(200);
      await waitFor(() => hangupRequested(fakes, 'provider_two', call.id), {
        timeoutMs: 5_000,
        what: 'the hang-up',
      });
      expect(await phoneLog(call.log.id)).toMatchObject({
        answeredBy: 'machine',
        answerOutcome: 'fax',
        sessionEndedBy: 'voicemail',
      });
      expect(spoken.filter((text) => text === VOICEMAIL)).toHaveLength(voicemailsBefore);
      await fakes.twilio.advanceCall(call.id, 'completed');
      expect(await phoneLog(call.log.id)).toMatchObject({ callStatus: 'voicemail' });
    });

    describe('provider_three: the machine verdict arrives after the answer', () => {
      it('stops the live greeting, waits for the provider-reported beep, leaves the voicemail message and hangs up', async () => {
        const { call, caller } = await liveCall('provider_three', LONG_GREETING);
        await waitFor(() => caller.frames.length >= 10, { what: 'the greeting under way' });
        await fakes.telnyx.advanceCall(call.id, 'call.machine.detection.ended', {
          result: 'machine',
        });
        await waitFor(() => caller.clears.length > 0, {
          timeoutMs: 5_000,
          what: 'the greeting cleared',
        });
        const framesAtClear = caller.frames.length;
        // 3 s of greeting would be 150 frames; it stopped well short and stays stopped.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(caller.frames.length - framesAtClear).toBeLessThan(5);
        expect(caller.frames.length).toBeLessThan(150);
        const beforeBeep = caller.frames.length;
        const beepAt = performance.now();
        await fakes.telnyx.advanceCall(call.id, 'call.machine.greeting.ended');
        await waitFor(() => hangupRequested(fakes, 'provider_three', call.id), {
          timeoutMs: 10_000,
          what: 'the hang-up after the message',
        });
        expect(spoken.at(-1)).toBe(VOICEMAIL);
        const message = caller.frames.slice(beforeBeep);
        expect(message.length).toBeGreaterThanOrEqual(15);
        expect(message[0].at).toBeGreaterThanOrEqual(beepAt);
        expect(caller.marks.map((mark) => mark.name)).toContain('voicemail-end');
        expect(
          logs.lines.find(
            (line) =>
              line.msg === 'Voicemail message after the beep wait' && line.call === call.log.id,
          ),
        ).toMatchObject({ outcome: 'provider' });
        await fakes.telnyx.advanceCall(call.id, 'call.hangup');
        expect(await phoneLog(call.log.id)).toMatchObject({
          callStatus: 'voicemail',
          answeredBy: 'machine',
        });
      });

      it('without a provider beep, leaves the message after the beep the local detector hears', async () => {
        const { call, caller } = await liveCall('provider_three', LONG_GREETING);
        await waitFor(() => caller.frames.length >= 10, { what: 'the greeting under way' });
        await fakes.telnyx.advanceCall(call.id, 'call.machine.detection.ended', {
          result: 'machine',
        });
        await waitFor(() => caller.clears.length > 0, { what: 'the greeting cleared' });
        const beforeBeep = caller.frames.length;
        // The machine's greeting (300 Hz), its 1 kHz beep, then silence, in real time.
        await streamCallerAudio(
          caller,
          Buffer.concat([ulawTone(300, 800), ulawTone(1_000, 300)]),
          0,
        );
        const beepEndedAt = performance.now();
        expect(await silenceUntilHangUp(caller, 'provider_three', call.id)).toBe(true);
        const message = caller.frames.slice(beforeBeep);
        expect(message.length).toBeGreaterThanOrEqual(15);
        expect(message[0].at).toBeGreaterThanOrEqual(beepEndedAt - 40);
        expect(
          logs.lines.find(
            (line) =>
              line.msg === 'Voicemail message after the beep wait' && line.call === call.log.id,
          ),
        ).toMatchObject({ outcome: 'beep' });
      });
    });
  });
}

suite('in-process');
suite('bullmq');
