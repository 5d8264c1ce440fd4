/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import { TwilioFake } from '../fakes';
import { ChatFake, type ChatReply } from '../fakes/chat.fake';
import { scriptedEngines } from '../fakes/scripted-engines';
import { MediaStreamCaller, twimlStream } from '../fakes/media-stream-caller';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { freePort } from '../support/free-port';
import { placedCall } from '../support/placed-call';
import { providerCases } from '../support/provider-cases';
import { startTestApp, type TestApp } from '../support/test-app';
import { streamCallerAudio } from '../support/voice-calls';
import { waitFor } from '../support/wait-for';

jest.setTimeout(90_000);

const GREETING = 'Hello Grace, this is Ada from Acme.';
const fixture = (name: string) =>
  readFileSync(path.join(__dirname, '..', 'fixtures', 'voice', name));

const speak = streamCallerAudio;

describe('voice conversation: the session listens, thinks and speaks back', () => {
  const transcripts: string[] = [];
  const spoken: string[] = [];
  let twilio: TwilioFake;
  let chat: ChatFake;
  let t: TestApp;
  let admin: RegisteredAdmin;
  let sequence = 7000;

  beforeAll(async () => {
    [twilio, chat] = await Promise.all([TwilioFake.start(), ChatFake.start()]);
    const port = await freePort();
    t = await startTestApp({
      speechEngines: scriptedEngines(transcripts, spoken),
      env: {
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        PROVIDER_TWO_API_URL: twilio.baseUrl,
        LLM_API_URL: chat.url,
        LLM_API_KEY: 'test-key',
      },
    });
    await t.app.listen(port, '127.0.0.1');
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([twilio?.close(), chat?.stop()]);
  });

  /** A call answered and streaming, its greeting heard (the caller echoes every mark). */
  async function greetedCall(...replies: ChatReply[]) {
    const number = `+1415556${(sequence += 1)}`;
    const call = await placedCall(t, admin, {
      integration: 'provider_two',
      number,
      credentials: providerCases({ twilio } as never).provider_two.seed(number),
      agent: { greeting: GREETING, voice: null, language: 'en-US' },
    });
    await twilio.advanceCall(call.id, 'ringing');
    await twilio.advanceCall(call.id, 'in-progress');
    const stream = twimlStream(twilio.call(call.id).answerFetch!.responseBody);
    const caller = await MediaStreamCaller.connect('provider_two', stream.url);
    caller.start(call.id, stream.token);
    await waitFor(() => caller.marks.some((mark) => mark.name === 'greeting-end'), {
      timeoutMs: 10_000,
      what: 'the greeting',
    });
    chat.reply(...replies);
    const turns = async () =>
      (await t.app.get(PhoneLogsRepository).findById(admin.organizationId, call.log.id))!.turns;
    return { call, caller, turns };
  }

  it('answers what the caller said: transcript to the model, the reply spoken, both stored', async () => {
    const { call, caller, turns } = await greetedCall({
      kind: 'text',
      pieces: ['We open at ', 'nine. We close', ' at five.'],
    });
    const requestsBefore = chat.requests.length;
    transcripts.push('What are your opening hours?');
    const framesBefore = caller.frames.length;
    await speak(caller, fixture('opening-hours.ulaw'));

    await waitFor(() => chat.requests.length > requestsBefore, { what: 'the chat request' });
    expect(JSON.stringify(chat.requests.at(-1)!.body.messages)).toContain(
      'What are your opening hours?',
    );
    await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('reply-')), {
      timeoutMs: 10_000,
      what: 'the reply',
    });
    await waitFor(
      () => caller.marks.filter((mark) => mark.name.startsWith('reply-')).length === 2,
      {
        timeoutMs: 10_000,
        what: 'both sentences',
      },
    );
    expect(spoken.slice(-2)).toEqual(['We open at nine.', 'We close at five.']);
    expect(caller.frames.length - framesBefore).toBeGreaterThanOrEqual(30);
    const stored = await waitFor(async () => ((await turns()).length === 3 ? turns() : false), {
      what: 'the stored turns',
    });
    expect(stored.map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'agent', text: GREETING },
      { role: 'callee', text: 'What are your opening hours?' },
      { role: 'agent', text: 'We open at nine. We close at five.' },
    ]);
    expect(twilio.call(call.id).hangupRequested).toBe(false);
    caller.close();
  });

  it('keeps listening after a backchannel, without asking the model', async () => {
    const { caller } = await greetedCall();
    const requestsBefore = chat.requests.length;
    transcripts.push('uh-huh');
    await speak(caller, fixture('uh-huh.ulaw'));
    transcripts.push('Hello world');
    await speak(caller, fixture('hello-world.ulaw'));
    await waitFor(() => chat.requests.length > requestsBefore, { what: 'the chat request' });
    const messages = JSON.stringify(chat.requests.at(-1)!.body.messages);
    expect(messages).toContain('Hello world');
    expect(messages).not.toContain('uh-huh');
    expect(chat.requests.length).toBe(requestsBefore + 1);
    caller.close();
  });

  it('clears the reply when the caller barges in, and stores only what was heard', async () => {
    const long = Array.from({ length: 12 }, (_, i) => `Sentence number ${i + 1} of a long reply.`);
    const { caller, turns } = await greetedCall({ kind: 'text', pieces: [long.join(' ')] });
    transcripts.push('Hello world');
    await speak(caller, fixture('hello-world.ulaw'));
    await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-1-2'), {
      timeoutMs: 10_000,
      what: 'the reply under way',
    });
    transcripts.push('No thank you');
    const speechAt = await speak(caller, fixture('no-thank-you.ulaw'), 1_000);
    const clearedAt = await waitFor(() => caller.clears.at(0) ?? false, { what: 'the clear' });
    // From the first frame of the utterance (its speech starts a little after): within 600 ms.
    expect(clearedAt - speechAt).toBeLessThan(600);
    const stored = await waitFor(
      async () => ((await turns()).some((turn) => turn.text === 'No thank you') ? turns() : false),
      { what: 'the callee turn' },
    );
    const reply = stored.find((turn) => turn.role === 'agent' && turn.text.startsWith('Sentence'));
    expect(reply).toBeDefined();
    expect(reply!.text).not.toContain('Sentence number 12');
    caller.close();
  });

  it('hangs up at the provider when the model calls end_call', async () => {
    const { call, caller } = await greetedCall({
      kind: 'tool-calls',
      text: 'Goodbye!',
      calls: [{ name: 'end_call', arguments: { reason: 'done' } }],
    });
    transcripts.push('No thank you');
    await speak(caller, fixture('no-thank-you.ulaw'));
    await waitFor(() => twilio.call(call.id).hangupRequested, {
      timeoutMs: 10_000,
      what: 'the hang-up',
    });
    expect(spoken).toContain('Goodbye!');
    expect(await caller.closed).toBe(1000);
  });

  it('puts the number on the DNC list when the model calls record_opt_out', async () => {
    const { call, caller } = await greetedCall({
      kind: 'tool-calls',
      calls: [{ name: 'record_opt_out', arguments: { reason: 'asked' } }],
    });
    const listed = async () =>
      (
        await t.http
          .get('/api/dnc/check')
          .query({ phoneNumber: call.record.phoneNumber })
          .set({ Authorization: `Bearer ${admin.token}` })
      ).body as { data: { onDncList: boolean } };
    expect((await listed()).data.onDncList).toBe(false);
    transcripts.push('Please stop calling me');
    await speak(caller, fixture('stop-calling.ulaw'));
    await waitFor(async () => (await listed()).data.onDncList, {
      timeoutMs: 10_000,
      what: 'the DNC entry',
    });
    await waitFor(() => twilio.call(call.id).hangupRequested, {
      timeoutMs: 10_000,
      what: 'the hang-up',
    });
  });
});
