/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { verifyWebhook } from '@app/webhooks';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import { TRANSFER_FAILED } from '../../src/modules/voice/session/conversation-phrases';
import { CallSessions } from '../../src/modules/voice/session/call-sessions';
import { CallSignals } from '../../src/modules/voice/session/call-signals';
import { LEG_POLL_MS, LEG_READ_BACK_MS } from '../../src/modules/voice/session/call-transfers';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import { ChatFake, type ChatReply, type ReceivedChatRequest } from '../fakes/chat.fake';
import type { CallbackDelivery } from '../fakes/http-fake';
import {
  elementAttribute,
  loudness,
  MediaStreamCaller,
  plivoXmlStream,
  twimlStream,
} from '../fakes/media-stream-caller';
import { scriptedEngines } from '../fakes/scripted-engines';
import { ulawTone } from '../fakes/ulaw-tone';
import type { RegisteredAdmin } from '../support/factories';
import { placedCall } from '../support/placed-call';
import { providerCases } from '../support/provider-cases';
import type { TestApp } from '../support/test-app';
import { answerToStream, hangupRequested, streamCallerAudio } from '../support/voice-calls';
import { startVoiceApp, type VoiceApp, type VoiceFakes } from '../support/voice-providers';
import { waitFor } from '../support/wait-for';
import { createWebhook, type TestWebhook } from '../support/webhook-factories';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const TRANSFER_TO = '+14155550199';
const TRANSFERRING = 'Let me get a colleague for you.';
const SUMMARY = 'Grace Hopper wants to move her delivery to Friday; her address is confirmed.';
const ASK_FOR_PERSON = 'Can I talk to a person?';
const BRIEF_SPOKEN = `${SUMMARY} Press 1 to take the call.`;

/** The model: a person asked for → a warm transfer_call with its brief for the colleague. */
function modelReply(request: ReceivedChatRequest): ChatReply {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  if (last?.role === 'user' && last.content === ASK_FOR_PERSON)
    return {
      kind: 'tool-calls',
      text: TRANSFERRING,
      calls: [
        {
          name: 'transfer_call',
          arguments: { reason: 'delivery change', summary: SUMMARY },
        },
      ],
    };
  return { kind: 'text', pieces: ['OK.'] };
}

interface Delivered {
  type: string;
  data: Record<string, unknown> & { call_id: string; sequence: number };
}

type DialIntegration = 'provider_two' | 'provider_one';

const fixture = (name: string) =>
  readFileSync(path.join(__dirname, '..', 'fixtures', 'voice', name));

function suite(queue: 'bullmq' | 'in-process') {
  describe(`warm transfers (${queue} queue)`, () => {
    const transcripts: string[] = [];
    const spoken: string[] = [];
    let voice: VoiceApp;
    let fakes: VoiceFakes;
    let chat: ChatFake;
    let receiver: WebhookReceiver;
    let t: TestApp;
    let admin: RegisteredAdmin;
    let hook: TestWebhook;
    let sequence = queue === 'bullmq' ? 7300 : 7700;

    beforeAll(async () => {
      [chat, receiver] = await Promise.all([ChatFake.start(), WebhookReceiver.start()]);
      chat.respond = modelReply;
      voice = await startVoiceApp({
        redis: queue === 'bullmq',
        speechEngines: scriptedEngines(transcripts, spoken, () => ulawTone(440, 300)),
        env: {
          LLM_API_URL: chat.url,
          LLM_API_KEY: 'test-key',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        },
      });
      ({ t, admin, fakes } = voice);
      hook = await createWebhook(t, admin, {
        url: receiver.url('/hooks'),
        events: ['call.transferred'],
      });
    });
    afterAll(async () => {
      await voice?.close();
      await Promise.all([chat?.stop(), receiver?.close()]);
    });

    /** A warm agent's call on its stream: greeted, then the caller asks for a person. */
    async function askingForPerson(integration: Integration, beforeAsking?: () => void) {
      const number = `+1415558${(sequence += 1)}`;
      const call = await placedCall(t, admin, {
        integration,
        number,
        credentials: providerCases(fakes)[integration].seed(number),
        agent: { transferNumber: TRANSFER_TO, transferMode: 'warm', voice: null },
      });
      const stream = await answerToStream(fakes, integration, call.id);
      const caller = await MediaStreamCaller.connect(integration, stream.url);
      caller.start(stream.callId, stream.token);
      await waitFor(() => caller.marks.some((mark) => mark.name === 'greeting-end'), {
        timeoutMs: 10_000,
        what: 'the greeting',
      });
      beforeAsking?.();
      transcripts.push(ASK_FOR_PERSON);
      await streamCallerAudio(caller, fixture('hello-world.ulaw'));
      return { call, caller, number };
    }

    /** The warm transfer asked of Twilio or Plivo: its <Dial> fetched, the stream left. */
    async function warmTransferAsked(integration: DialIntegration) {
      const { call, caller } = await askingForPerson(integration);
      const dial = await waitFor(
        async () => {
          if (integration === 'provider_two')
            return (
              fakes.twilio.call(call.id).redirects.length > 0 &&
              (await fakes.twilio.fetchRedirect(call.id)).responseBody
            );
          return (
            fakes.plivo.call(call.id).transfers.length > 0 &&
            (await fakes.plivo.fetchTransfer(call.id)).responseBody
          );
        },
        { timeoutMs: 10_000, what: 'the transfer and its <Dial>' },
      );
      // The call leaves the stream for the <Dial>.
      caller.send({ event: 'stop' });
      caller.close();
      await caller.closed;
      await waitFor(() => t.app.get(CallSessions).size === 0, { what: 'the session to end' });
      return { call, dial };
    }

    const phoneLog = (id: string) =>
      t.app.get(PhoneLogsRepository).findById(admin.organizationId, id);

    const transfersOf = (callId: string): Delivered[] =>
      receiver
        .at('/hooks')
        .map((d) => verifyWebhook<Delivered>(d.body, d.headers, hook.plainSecret))
        .filter((event) => event.data.call_id === callId);

    /** The call's call.transferred, once delivered. */
    const transferredEvent = (callId: string) =>
      waitFor(() => transfersOf(callId)[0] ?? false, {
        timeoutMs: 10_000,
        what: 'call.transferred',
      });

    /** The caller given back to the agent on the stream the <Dial>'s end connects: the apology. */
    async function backWithTheAgent(
      integration: DialIntegration,
      providerCallId: string,
      ended: CallbackDelivery,
    ) {
      const stream =
        integration === 'provider_two'
          ? { ...twimlStream(ended.responseBody), callId: providerCallId }
          : {
              ...plivoXmlStream(ended.responseBody),
              callId: fakes.plivo.call(providerCallId).callUuid,
            };
      const back = await MediaStreamCaller.connect(integration, stream.url);
      back.start(stream.callId, stream.token);
      await waitFor(() => back.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
        timeoutMs: 10_000,
        what: 'the agent telling the caller no one could take the call',
      });
      back.close();
    }

    it('asks the model for the brief its colleague will hear', async () => {
      const { call } = await warmTransferAsked('provider_two');
      const asked = chat.requests.find((request) =>
        JSON.stringify(request.body.messages).includes(ASK_FOR_PERSON),
      )!;
      const tool = (
        asked.body.tools as Array<{ function: { name: string; parameters: unknown } }>
      ).find((candidate) => candidate.function.name === 'transfer_call')!;
      expect(tool.function.parameters).toMatchObject({ required: ['reason', 'summary'] });
      expect(await phoneLog(call.log.id)).toMatchObject({
        transferredTo: TRANSFER_TO,
        transferBriefing: SUMMARY,
        transferredAt: null,
      });
      await fakes.twilio.dialEnded(call.id, 'no-answer');
    });

    it('provider_two: the colleague hears the brief and takes the call with 1; call.transferred carries it', async () => {
      const { call, dial } = await warmTransferAsked('provider_two');
      const briefingUrl = elementAttribute(dial, 'Number', 'url')!;
      expect(briefingUrl).toContain(
        `/api/telephony/provider_two/${call.phone.id}/transfer-briefing?`,
      );
      expect(elementAttribute(dial, 'Number', 'method')).toBe('POST');
      // The caller keeps hearing the ringing while the whisper plays.
      expect(elementAttribute(dial, 'Dial', 'answerOnBridge')).toBe('true');
      // The colleague picks up: not yet a transfer, they have not taken the call.
      expect(await fakes.twilio.dialedAnswered(call.id)).toBe(200);
      expect(await phoneLog(call.log.id)).toMatchObject({ transferredAt: null });
      // The whisper is a provider callback like the others: a forged fetch gets nothing.
      expect((await fakes.twilio.fetchBriefing(call.id, { signature: 'invalid' })).status).toBe(
        401,
      );
      const whisper = await fakes.twilio.fetchBriefing(call.id);
      expect(whisper.status).toBe(200);
      expect(whisper.responseBody).toContain(`<Say language="en-US">${BRIEF_SPOKEN}</Say>`);
      expect(whisper.responseBody).toMatch(/<Gather input="dtmf" numDigits="1" timeout="10" /);
      expect(whisper.responseBody).toContain('</Gather><Hangup/>');
      expect(transfersOf(call.log.id)).toHaveLength(0);
      // A forged key counts for nothing; the colleague's 1 puts the caller through, once.
      expect(
        (await fakes.twilio.pressInBriefing(call.id, '1', { signature: 'invalid' })).status,
      ).toBe(401);
      expect(await phoneLog(call.log.id)).toMatchObject({ transferredAt: null });
      const taken = await fakes.twilio.pressInBriefing(call.id, '1');
      expect(taken.responseBody).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
      expect((await fakes.twilio.pressInBriefing(call.id, '1')).responseBody).toBe(
        taken.responseBody,
      );
      const transferred = await transferredEvent(call.log.id);
      expect(transferred.data).toMatchObject({
        transfer_to: TRANSFER_TO,
        transfer_type: 'warm',
        reason: 'delivery change',
        summary: SUMMARY,
      });
      // Their conversation over, the <Dial> ends and so does the call.
      const ended = await fakes.twilio.dialEnded(call.id, 'completed');
      expect(ended.responseBody).toContain('<Hangup/>');
      expect(transfersOf(call.log.id)).toHaveLength(1);
      expect(hangupRequested(fakes, 'provider_two', call.id)).toBe(false);
    });

    it('provider_one: the colleague hears the brief as the confirmSound and Plivo bridges on the confirmKey', async () => {
      const { call, dial } = await warmTransferAsked('provider_one');
      expect(elementAttribute(dial, 'Dial', 'confirmSound')).toContain(
        `/api/telephony/provider_one/${call.phone.id}/transfer-briefing?`,
      );
      expect(elementAttribute(dial, 'Dial', 'confirmKey')).toBe('1');
      // Meanwhile the caller hears ringback, served by us (Plivo fetches the dialMusic XML).
      const hold = elementAttribute(dial, 'Dial', 'dialMusic')!;
      expect(hold).toBe(`${t.config.http.publicBaseUrl}/api/telephony/sounds/hold.xml`);
      const holdXml = await t.http.post('/api/telephony/sounds/hold.xml').expect(200);
      const wavUrl = new URL(/<Play loop="0">([^<]+)<\/Play>/.exec(holdXml.text)![1]);
      const wav = await t.http.get(wavUrl.pathname).buffer(true).expect(200);
      expect(wav.headers['content-type']).toBe('audio/wav');
      expect((wav.body as Buffer).subarray(0, 4).toString()).toBe('RIFF');
      expect((wav.body as Buffer).length).toBe(44 + 6 * 8_000 * 2);
      expect((await fakes.plivo.fetchConfirmSound(call.id, { signature: 'missing' })).status).toBe(
        401,
      );
      const sound = await fakes.plivo.fetchConfirmSound(call.id);
      expect(sound.responseBody).toBe(
        `<?xml version="1.0" encoding="UTF-8"?><Response><Speak language="en-US">${BRIEF_SPOKEN}</Speak></Response>`,
      );
      expect(await phoneLog(call.log.id)).toMatchObject({ transferredAt: null });
      // The colleague pressed 1: Plivo bridges the legs and reports the answer.
      expect(await fakes.plivo.dialedAnswered(call.id)).toBe(200);
      const transferred = await transferredEvent(call.log.id);
      expect(transferred.data).toMatchObject({ transfer_type: 'warm', summary: SUMMARY });
      const ended = await fakes.plivo.dialEnded(call.id, 'completed');
      expect(ended.responseBody).toContain('<Hangup/>');
    });

    it('provider_two: a colleague who declines gives the caller back to the agent, whatever the <Dial> says', async () => {
      const { call } = await warmTransferAsked('provider_two');
      await fakes.twilio.dialedAnswered(call.id);
      await fakes.twilio.fetchBriefing(call.id);
      const declined = await fakes.twilio.pressInBriefing(call.id, '2');
      expect(declined.responseBody).toContain('<Hangup/>');
      // Twilio may call the <Dial> completed: the colleague did pick up.
      const ended = await fakes.twilio.dialEnded(call.id, 'completed');
      expect(ended.responseBody).toContain('<Stream');
      expect(await phoneLog(call.log.id)).toMatchObject({
        callStatus: 'in-progress',
        transferredTo: null,
        transferredAt: null,
        transferBriefing: null,
      });
      await backWithTheAgent('provider_two', call.id, ended);
      expect(spoken).toContain(TRANSFER_FAILED);
      expect(transfersOf(call.log.id)).toHaveLength(0);
      // A whisper fetched again, late, finds no transfer waiting: the colleague is hung up on.
      expect((await fakes.twilio.fetchBriefing(call.id)).responseBody).toContain('<Hangup/>');
    });

    it('provider_two: a key that never reaches us (no key, or its report lost) is no transfer', async () => {
      const { call } = await warmTransferAsked('provider_two');
      await fakes.twilio.dialedAnswered(call.id);
      await fakes.twilio.fetchBriefing(call.id);
      const ended = await fakes.twilio.dialEnded(call.id, 'completed');
      expect(ended.responseBody).toContain('<Stream');
      expect(await phoneLog(call.log.id)).toMatchObject({
        transferredTo: null,
        transferredAt: null,
      });
      await backWithTheAgent('provider_two', call.id, ended);
      expect(transfersOf(call.log.id)).toHaveLength(0);
    });

    it('provider_one: a colleague who never presses the confirmKey is no transfer', async () => {
      const { call } = await warmTransferAsked('provider_one');
      await fakes.plivo.fetchConfirmSound(call.id);
      const ended = await fakes.plivo.dialEnded(call.id, 'completed');
      expect(ended.responseBody).toContain('<Stream');
      expect(await phoneLog(call.log.id)).toMatchObject({
        transferredTo: null,
        transferredAt: null,
      });
      await backWithTheAgent('provider_one', call.id, ended);
      expect(transfersOf(call.log.id)).toHaveLength(0);
      // A confirmSound fetched again, late, finds no transfer waiting: nothing is read.
      const late = await fakes.plivo.fetchConfirmSound(call.id);
      expect(late.responseBody).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    });

    /** The phone log a Telnyx call was placed for (its client_state). */
    const legOf = (placed: { clientState: string | null }) =>
      Buffer.from(placed.clientState ?? '', 'base64').toString();

    /** A warm agent's Telnyx call: the caller asks for a person; the colleague's leg is placed. */
    async function telnyxLegPlaced() {
      const { call, caller, number } = await askingForPerson('provider_three');
      const leg = await waitFor(
        () =>
          fakes.telnyx.calls.find(
            (placed) => placed.to === TRANSFER_TO && legOf(placed) === call.log.id,
          ) ?? false,
        { timeoutMs: 10_000, what: "the colleague's leg" },
      );
      return { call, caller, leg: leg.callControlId, number };
    }

    /** The colleague's leg answers, is briefed, and presses `digits` after the brief. */
    async function keyAfterBrief(leg: string, digits: string) {
      await fakes.telnyx.advanceCall(leg, 'call.answered');
      await waitFor(
        () => fakes.telnyx.call(leg).actions.some((a) => a.action === 'gather_using_speak'),
        { what: 'the brief' },
      );
      await fakes.telnyx.advanceCall(leg, 'call.gather.ended', { digits, status: 'valid' });
    }

    /** The caller hears ringing, not silence, while the leg rings and its party is briefed. */
    async function hearsRinging(caller: MediaStreamCaller) {
      const from = caller.frames.length;
      await waitFor(() => caller.frames.length >= from + 50, {
        timeoutMs: 5_000,
        what: 'a second of audio on hold',
      });
      expect(loudness(caller.frames.slice(from, from + 50))).toBeGreaterThan(500);
    }

    it('provider_three: the colleague is called on a leg of its own and briefed while the caller hears ringing; their 1 bridges the calls', async () => {
      const { call, caller, leg, number } = await telnyxLegPlaced();
      // The caller's call was not handed to Telnyx's transfer: it stays on the stream.
      expect(fakes.telnyx.call(call.id).actions.map((a) => a.action)).not.toContain('transfer');
      expect(fakes.telnyx.call(leg)).toMatchObject({ from: number, to: TRANSFER_TO });
      expect(fakes.telnyx.call(leg).webhookUrl).toContain(`call=${call.log.id}`);
      await hearsRinging(caller);
      // The colleague picks up: the brief and a one-key gather, not yet a transfer.
      expect(await fakes.telnyx.advanceCall(leg, 'call.answered')).toBe(200);
      const gather = await waitFor(
        () =>
          fakes.telnyx.call(leg).actions.find((a) => a.action === 'gather_using_speak') ?? false,
        { timeoutMs: 5_000, what: 'the brief' },
      );
      expect(gather.body).toMatchObject({
        payload: BRIEF_SPOKEN,
        language: 'en-US',
        maximum_digits: 1,
        timeout_millis: 10_000,
      });
      expect(await phoneLog(call.log.id)).toMatchObject({ transferredAt: null });
      await hearsRinging(caller);
      // Their 1: the caller's call is bridged to the leg.
      await fakes.telnyx.advanceCall(leg, 'call.gather.ended', { digits: '1', status: 'valid' });
      const bridge = await waitFor(
        () => fakes.telnyx.call(call.id).actions.find((a) => a.action === 'bridge') ?? false,
        { timeoutMs: 5_000, what: 'the bridge' },
      );
      expect(bridge.body).toMatchObject({ call_control_id: leg });
      await fakes.telnyx.advanceCall(leg, 'call.bridged');
      const transferred = await transferredEvent(call.log.id);
      expect(transferred.data).toMatchObject({ transfer_type: 'warm', summary: SUMMARY });
      // The agent is gone from the line: the ringing stops, nothing is hung up.
      await waitFor(
        async () => {
          const before = caller.frames.length;
          await new Promise((resolve) => setTimeout(resolve, 300));
          return caller.frames.length === before;
        },
        { timeoutMs: 5_000, what: 'the ringing to stop' },
      );
      expect(hangupRequested(fakes, 'provider_three', call.id)).toBe(false);
      // The colleague's leg ending later is not the caller's call ending.
      await fakes.telnyx.advanceCall(leg, 'call.hangup');
      expect(await phoneLog(call.log.id)).toMatchObject({ callStatus: 'in-progress' });
      caller.close();
      await fakes.telnyx.advanceCall(call.id, 'call.hangup');
    });

    it('provider_three: a colleague who declines is hung up, and the caller is back with the agent on the same stream', async () => {
      const { call, caller, leg } = await telnyxLegPlaced();
      await keyAfterBrief(leg, '2');
      await waitFor(() => fakes.telnyx.call(leg).hangupRequested, { what: 'the leg hung up' });
      expect(fakes.telnyx.call(call.id).actions.map((a) => a.action)).not.toContain('bridge');
      await fakes.telnyx.advanceCall(leg, 'call.hangup');
      await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
        timeoutMs: 10_000,
        what: 'the agent telling the caller no one could take the call',
      });
      expect(await phoneLog(call.log.id)).toMatchObject({
        callStatus: 'in-progress',
        transferredTo: null,
        transferBriefing: null,
      });
      expect(transfersOf(call.log.id)).toHaveLength(0);
      expect(hangupRequested(fakes, 'provider_three', call.id)).toBe(false);
      caller.close();
      await fakes.telnyx.advanceCall(call.id, 'call.hangup');
    });

    it("provider_three: the leg's outcome whose signal is lost between processes is read back from the attempt within seconds", async () => {
      // A Redis subscriber reconnecting drops what is published meanwhile: here, both outcomes.
      const signals = t.app.get(CallSignals);
      const publish = signals.publish.bind(signals);
      const lost = jest
        .spyOn(signals, 'publish')
        .mockImplementation((call, signal) =>
          signal.startsWith('transfer-') ? Promise.resolve() : publish(call, signal),
        );
      try {
        // Declined: the caller, on ringback, is back with the agent in one read-back, not 95 s.
        const declined = await telnyxLegPlaced();
        await keyAfterBrief(declined.leg, '2');
        await waitFor(() => fakes.telnyx.call(declined.leg).hangupRequested, {
          what: 'the leg hung up',
        });
        await fakes.telnyx.advanceCall(declined.leg, 'call.hangup');
        await waitFor(
          () => declined.caller.marks.some((mark) => mark.name.startsWith('transfer-failed-')),
          { timeoutMs: LEG_READ_BACK_MS + 4_000, what: 'the agent back with the caller' },
        );
        declined.caller.close();
        await fakes.telnyx.advanceCall(declined.call.id, 'call.hangup');

        // Taken: the ringback stops within a read-back, the session leaves the call.
        const taken = await telnyxLegPlaced();
        await keyAfterBrief(taken.leg, '1');
        await waitFor(
          () => fakes.telnyx.call(taken.call.id).actions.some((a) => a.action === 'bridge'),
          { what: 'the bridge' },
        );
        await fakes.telnyx.advanceCall(taken.leg, 'call.bridged');
        await transferredEvent(taken.call.log.id);
        await waitFor(
          async () => {
            const before = taken.caller.frames.length;
            await new Promise((resolve) => setTimeout(resolve, 300));
            return taken.caller.frames.length === before;
          },
          { timeoutMs: LEG_READ_BACK_MS + 4_000, what: 'the ringing to stop' },
        );
        expect(lost.mock.calls.map(([, signal]) => signal)).toEqual([
          'transfer-failed',
          'transfer-answered',
        ]);
        taken.caller.close();
        await fakes.telnyx.advanceCall(taken.call.id, 'call.hangup');
      } finally {
        lost.mockRestore();
      }
    });

    it("provider_three: a colleague's hang-up Telnyx never reports is found by asking for the leg (a failed look tried again): the caller is back with the agent within seconds, not 95 s", async () => {
      const { call, caller, leg } = await telnyxLegPlaced();
      await fakes.telnyx.advanceCall(leg, 'call.answered');
      await waitFor(
        () => fakes.telnyx.call(leg).actions.some((a) => a.action === 'gather_using_speak'),
        { what: 'the brief' },
      );
      // The colleague hangs up during the brief; its call.hangup is lost, and the first look at
      // the leg fails (every try of it): the next one finds it ended.
      fakes.telnyx.failNext(3, 503, { method: 'GET', path: /\/calls\// });
      fakes.telnyx.endCallUnreported(leg);
      await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
        timeoutMs: 2 * LEG_POLL_MS + LEG_READ_BACK_MS + 4_000,
        what: 'the agent back with the caller',
      });
      expect(
        fakes.telnyx.requests.some(
          (r) => r.method === 'GET' && decodeURIComponent(r.path).endsWith(`/calls/${leg}`),
        ),
      ).toBe(true);
      expect(await phoneLog(call.log.id)).toMatchObject({
        callStatus: 'in-progress',
        transferredTo: null,
        transferredAt: null,
      });
      expect(transfersOf(call.log.id)).toHaveLength(0);
      caller.close();
      await fakes.telnyx.advanceCall(call.id, 'call.hangup');
    });

    it('provider_three: a brief Telnyx refuses twice hangs up the leg, and the caller is back with the agent', async () => {
      const { call, caller, leg } = await telnyxLegPlaced();
      // Every try of both runs of the command (the client tries a request 3 times).
      fakes.telnyx.failNext(6, 500, { method: 'POST', path: /actions\/gather_using_speak$/ });
      await fakes.telnyx.advanceCall(leg, 'call.answered');
      await waitFor(() => fakes.telnyx.call(leg).hangupRequested, {
        timeoutMs: 5_000,
        what: 'the leg hung up after the failed brief',
      });
      await fakes.telnyx.advanceCall(leg, 'call.hangup');
      await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
        timeoutMs: 10_000,
        what: 'the caller back with the agent',
      });
      expect(await phoneLog(call.log.id)).toMatchObject({ transferredTo: null });
      expect(hangupRequested(fakes, 'provider_three', call.id)).toBe(false);
      caller.close();
      await fakes.telnyx.advanceCall(call.id, 'call.hangup');
    });

    it('provider_three: a bridge Telnyx refuses twice hangs up the leg, and the caller is back with the agent', async () => {
      const { call, caller, leg } = await telnyxLegPlaced();
      fakes.telnyx.failNext(6, 500, { method: 'POST', path: /actions\/bridge$/ });
      await keyAfterBrief(leg, '1');
      await waitFor(() => fakes.telnyx.call(leg).hangupRequested, {
        timeoutMs: 5_000,
        what: 'the leg hung up after the failed bridge',
      });
      await fakes.telnyx.advanceCall(leg, 'call.hangup');
      await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
        timeoutMs: 10_000,
        what: 'the caller back with the agent',
      });
      expect(await phoneLog(call.log.id)).toMatchObject({
        transferredTo: null,
        transferredAt: null,
      });
      expect(transfersOf(call.log.id)).toHaveLength(0);
      expect(hangupRequested(fakes, 'provider_three', call.id)).toBe(false);
      caller.close();
      await fakes.telnyx.advanceCall(call.id, 'call.hangup');
    });

    it("provider_three: a colleague's leg Telnyx refuses to place is a refused transfer: the agent apologises at once", async () => {
      const { call, caller } = await askingForPerson('provider_three', () =>
        fakes.telnyx.failNext(1, 500, { method: 'POST', path: /\/v2\/calls$/ }),
      );
      await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('transfer-failed-')), {
        timeoutMs: 10_000,
        what: 'the apology',
      });
      expect(
        fakes.telnyx.calls.filter((placed) => placed.to === TRANSFER_TO).map(legOf),
      ).not.toContain(call.log.id);
      expect(await phoneLog(call.log.id)).toMatchObject({
        callStatus: 'in-progress',
        transferredTo: null,
        transferBriefing: null,
      });
      expect(hangupRequested(fakes, 'provider_three', call.id)).toBe(false);
      caller.close();
      await fakes.telnyx.advanceCall(call.id, 'call.hangup');
    });
  });
}

suite('in-process');
suite('bullmq');
