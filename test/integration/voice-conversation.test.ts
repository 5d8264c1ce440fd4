/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { WebhookDelivery } from '@app/contracts';
import { verifyWebhook } from '@app/webhooks';
import { Database } from '../../src/database';
import { SwitchboardMetrics } from '../../src/metrics/switchboard-metrics';
import { events } from '../../src/modules/events/events.schema';
import { phoneLogs } from '../../src/modules/call-records/call-records.schema';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import { GREETING_MARK } from '../../src/modules/voice/session/conversation';
import { heardPart } from '../../src/modules/voice/session/reply';
import type { SpeechEngines } from '../../src/modules/voice/speech/speech-engines';
import { ChatFake, type ChatReply } from '../fakes/chat.fake';
import { detectDtmf } from '../fakes/dtmf-detector';
import { fixtureRecognition } from '../fakes/fixture-recognition';
import { MediaStreamCaller } from '../fakes/media-stream-caller';
import { ulawTone } from '../fakes/ulaw-tone';
import { CALLER_UTTERANCES, callerAudio, VOICE_FIXTURES_DIR } from '../support/caller-utterances';
import {
  onEachProvider,
  placeVoiceCall,
  startVoiceApp,
  type VoiceApp,
  type VoiceProvider,
} from '../support/voice-providers';
import { waitFor } from '../support/wait-for';
import { createWebhook, type TestWebhook } from '../support/webhook-factories';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(90_000);

type CallCompletedEvent = WebhookDelivery<'call.completed'>;

const GREETING = 'Hello Grace, this is Ada from Acme.';
/** Speech the fixture recogniser knows no words of (the sandbox caller's first line). */
const FALSE_INTERRUPTION = readFileSync(path.join(VOICE_FIXTURES_DIR, 'sandbox-1-hello.ulaw'));
/** 300 ms of a 440 Hz tone per sentence synthesized: 15 frames. */
const TONE = ulawTone(440, 300);
const TONE_FRAMES = 15;

/** Outside engines: a recogniser that knows the committed utterances, synthesis a known tone. */
function engines(spoken: string[]): SpeechEngines {
  return {
    stt: fixtureRecognition(),
    tts: {
      async *synthesize(text) {
        spoken.push(text);
        await Promise.resolve();
        yield TONE;
      },
    },
    readiness: () => Promise.resolve({ ready: true }),
  };
}

/**
 * The agent turn stored for a reply of `sentences` cut short: how many sentences it kept whole
 * (the words heard of the next one may follow, ending in a dash).
 */
function keptSentences(stored: string, sentences: string[]): number {
  for (let whole = sentences.length; whole >= 1; whole -= 1) {
    const start = sentences.slice(0, whole).join(' ');
    const rest = stored.startsWith(start) ? stored.slice(start.length) : null;
    if (rest === '') return whole;
    const cut = rest?.startsWith(' ') && rest.endsWith('—') ? rest.slice(1, -1) : null;
    if (cut && sentences[whole]?.startsWith(cut)) return whole;
  }
  throw new Error(`"${stored}" is not the start of the reply`);
}

// Each test holds one call per provider at once on one app (onEachProvider): the three
// providers' wire formats through one session runtime, in the time of one call.
describe('voice conversation on the Twilio, Plivo and Telnyx media streams', () => {
  const spoken: string[] = [];
  let chat: ChatFake;
  let receiver: WebhookReceiver;
  let hook: TestWebhook;
  let voice: VoiceApp;
  let calls = 0;

  beforeAll(async () => {
    [chat, receiver] = await Promise.all([ChatFake.start(), WebhookReceiver.start()]);
    voice = await startVoiceApp({
      speechEngines: engines(spoken),
      env: {
        LLM_API_URL: chat.url,
        LLM_API_KEY: 'test-key',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      },
    });
    hook = await createWebhook(voice.t, voice.admin, {
      url: receiver.url('/hooks'),
      events: ['call.completed'],
    });
  });
  afterAll(async () => {
    await voice?.close();
    await Promise.all([chat?.stop(), receiver?.close()]);
  });

  const eachProvider = (scenario: (provider: VoiceProvider) => Promise<void>) =>
    onEachProvider(voice.providers, scenario);

  /** The turns stored on a phone log so far, role and text. */
  const storedTurns = async (phoneLogId: string) =>
    (await voice.t.app
      .get(PhoneLogsRepository)
      .findById(voice.admin.organizationId, phoneLogId))!.turns.map(({ role, text }) => ({
      role,
      text,
    }));

  /**
   * A call answered and streaming, its greeting's first frame arrived within 1.5 s of the
   * stream's start. The agent's prompt names the call, so `replies` and `requests` are its own.
   */
  async function streamingCall(
    provider: VoiceProvider,
    options: {
      greeting?: string;
      replies?: ChatReply[];
      agent?: NonNullable<Parameters<typeof placeVoiceCall>[2]>;
    } = {},
  ) {
    const tag = `call-${(calls += 1)}`;
    const call = await placeVoiceCall(voice, provider, {
      greeting: options.greeting ?? GREETING,
      prompt: `You are Ada from Acme (${tag}).`,
      voice: null,
      language: 'en-US',
      ...options.agent,
    });
    chat.replyTo(tag, ...(options.replies ?? []));
    const stream = await provider.answer(call.id);
    const caller = await MediaStreamCaller.connect(provider.integration, stream.url);
    caller.start(stream.callId, stream.token);
    const first = await waitFor(() => caller.frames[0], {
      timeoutMs: 10_000,
      what: 'the greeting',
    });
    expect(first.at - caller.startedAt).toBeLessThan(1_500);
    const turns = () => storedTurns(call.log.id);
    return { call, caller, turns, requests: () => chat.requestsMentioning(tag) };
  }

  /** The call's call.completed, once raised. */
  const completedEvent = (phoneLogId: string) =>
    waitFor(
      async () =>
        (
          await voice.t.app
            .get(Database)
            .db.select()
            .from(events)
            .where(and(eq(events.callId, phoneLogId), eq(events.type, 'call.completed')))
        )[0],
      { what: 'call.completed' },
    );

  /** The call's call.completed as the webhook received it, signature checked. */
  const deliveredCompletion = (phoneLogId: string) =>
    waitFor(
      () =>
        receiver
          .at('/hooks')
          .map((d) => verifyWebhook<CallCompletedEvent>(d.body, d.headers, hook.plainSecret))
          .find((event) => event.type === 'call.completed' && event.data.call_id === phoneLogId) ??
        false,
      { timeoutMs: 10_000, what: 'call.completed delivered' },
    );

  /** The batch's (only) phone log as batch details show it. */
  const batchDetailsLog = async (batchId: string) => {
    const details = await voice.t.http
      .get(`/api/call/batch-details/${batchId}`)
      .set({ Authorization: `Bearer ${voice.admin.token}` })
      .expect(200);
    return (details.body.data.data[0].phoneLogs as Array<Record<string, unknown>>)[0];
  };

  /** A streaming call whose greeting has played to its end (the caller echoes every mark). */
  async function greetedCall(provider: VoiceProvider, ...replies: ChatReply[]) {
    const greeted = await streamingCall(provider, { replies });
    await waitFor(() => greeted.caller.marks.some((mark) => mark.name === GREETING_MARK), {
      timeoutMs: 10_000,
      what: 'the end of the greeting',
    });
    return greeted;
  }

  it('hears the caller, asks the model with their words, speaks the reply once they stop, stores it all', () =>
    eachProvider(async (provider) => {
      const { call, caller, turns, requests } = await greetedCall(provider, {
        kind: 'text',
        pieces: ['We open at ', 'nine. We close', ' at five.'],
      });
      const said = CALLER_UTTERANCES['opening-hours'];
      const { startedAt, endedAt } = await caller.play(callerAudio('opening-hours'));

      const [request] = await waitFor(() => requests().length > 0 && requests(), {
        what: 'the chat request',
      });
      expect(JSON.stringify(request.body.messages)).toContain(said);
      await waitFor(
        () => caller.marks.filter((mark) => mark.name.startsWith('reply-')).length === 2,
        { timeoutMs: 10_000, what: 'both sentences played' },
      );
      expect(spoken).toEqual(expect.arrayContaining(['We open at nine.', 'We close at five.']));
      // Nothing was sent while the caller spoke; the reply came after they stopped.
      const reply = caller.frames.filter((frame) => frame.at > startedAt);
      expect(reply.length).toBeGreaterThanOrEqual(30);
      expect(reply[0].at).toBeGreaterThan(endedAt);
      // Marks in the provider's own message (Plivo: checkpoint, answered by playedStream).
      expect(caller.received.filter((m) => m.event === provider.markEvent)).toHaveLength(4);
      const stored = await waitFor(async () => ((await turns()).length === 3 ? turns() : false), {
        what: 'the stored turns',
      });
      expect(stored).toEqual([
        { role: 'agent', text: GREETING },
        { role: 'callee', text: said },
        { role: 'agent', text: 'We open at nine. We close at five.' },
      ]);
      expect(provider.hangupRequested(call.id)).toBe(false);
      caller.close();
    }));

  it("keeps each reply's latency and its parts on the record; the call's p50/p95 in the batch details and call.completed", () =>
    eachProvider(async (provider) => {
      const { call, caller, requests } = await greetedCall(provider, {
        kind: 'text',
        pieces: ['We open at nine.'],
      });
      const { endedAt } = await caller.play(callerAudio('opening-hours'));
      await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-1-1'), {
        timeoutMs: 10_000,
        what: 'the reply played',
      });
      const firstFrame = caller.frames.find((frame) => frame.at > endedAt)!;
      const log = await waitFor(
        async () => {
          const found = await voice.t.app
            .get(PhoneLogsRepository)
            .findById(voice.admin.organizationId, call.log.id);
          return found?.turns.length === 3 && found;
        },
        { what: 'the stored reply' },
      );
      const { latency } = log.turns[2];
      expect(log.turns[0].latency).toBeUndefined();
      expect(log.turns[1].latency).toBeUndefined();
      const { totalMs, recognitionMs, modelMs, synthesisMs } = latency!;
      expect(recognitionMs).toBeGreaterThanOrEqual(0);
      expect(modelMs).toBeGreaterThanOrEqual(0);
      expect(synthesisMs).toBeGreaterThanOrEqual(0);
      expect(Math.abs(recognitionMs! + modelMs! + synthesisMs! - totalMs)).toBeLessThanOrEqual(2);
      // From the caller's end of speech (the VAD's, inside the 1.2 s of silence after the words)
      // to the first frame they received: no longer than what they measured.
      expect(totalMs).toBeLessThanOrEqual(firstFrame.at - (endedAt - 1_200) + 50);
      expect(requests()).toHaveLength(1);

      caller.hangUp();
      await provider.complete(call.id);
      const details = await voice.t.http
        .get(`/api/call/batch-details/${call.batch.id}`)
        .set({ Authorization: `Bearer ${voice.admin.token}` })
        .expect(200);
      const [phoneLog] = details.body.data.data[0].phoneLogs as Array<Record<string, unknown>>;
      expect(phoneLog.turnLatency).toEqual({ turns: 1, p50Ms: totalMs, p95Ms: totalMs });
      expect((phoneLog.turns as Array<{ latency?: unknown }>)[2].latency).toEqual(latency);
      const completed = await completedEvent(call.log.id);
      expect(completed.data.turn_latency).toEqual({ turns: 1, p50_ms: totalMs, p95_ms: totalMs });
    }));

  /** A call to an agent that lets the callee speak first, connected (no audio sent yet). */
  async function calleeFirstCall(provider: VoiceProvider, calleeFirstWaitMs: number) {
    const tag = `call-${(calls += 1)}`;
    const call = await placeVoiceCall(voice, provider, {
      greeting: GREETING,
      prompt: `You are Ada from Acme (${tag}).`,
      voice: null,
      language: 'en-US',
      firstSpeaker: 'callee',
      calleeFirstWaitMs,
    });
    const stream = await provider.answer(call.id);
    const caller = await MediaStreamCaller.connect(provider.integration, stream.url);
    caller.start(stream.callId, stream.token);
    const turns = () => storedTurns(call.log.id);
    return { caller, turns, requests: () => chat.requestsMentioning(tag) };
  }

  it('callee first: the greeting waits for their "Hello?" to end, which is kept, not answered', () =>
    eachProvider(async (provider) => {
      const { caller, turns, requests } = await calleeFirstCall(provider, 4_000);
      const said = CALLER_UTTERANCES['hello-world'];
      const { endedAt } = await caller.play(callerAudio('hello-world'), 0);
      expect(caller.frames).toHaveLength(0);
      const first = await waitFor(() => caller.frames[0], {
        timeoutMs: 10_000,
        what: 'the greeting',
      });
      // After their words (and the turn tracker's end-of-turn silence), well before the cap.
      expect(first.at).toBeGreaterThan(endedAt);
      expect(first.at - endedAt).toBeLessThan(2_500);
      await waitFor(() => caller.marks.some((mark) => mark.name === GREETING_MARK), {
        timeoutMs: 10_000,
        what: 'the end of the greeting',
      });
      const stored = await waitFor(async () => ((await turns()).length === 2 ? turns() : false), {
        what: 'the stored turns',
      });
      expect(stored).toEqual([
        { role: 'callee', text: said },
        { role: 'agent', text: GREETING },
      ]);
      // Nobody asked the model to answer "Hello?": the greeting was the answer.
      expect(requests()).toHaveLength(0);
      caller.close();
    }));

  it('callee first: a callee who says nothing is greeted once the wait has passed', () =>
    eachProvider(async (provider) => {
      const { caller } = await calleeFirstCall(provider, 1_000);
      const first = await waitFor(() => caller.frames[0], {
        timeoutMs: 10_000,
        what: 'the greeting',
      });
      expect(first.at - caller.startedAt).toBeGreaterThanOrEqual(1_000);
      expect(first.at - caller.startedAt).toBeLessThan(2_500);
      caller.close();
    }));

  it('keeps listening after a backchannel, without asking the model', () =>
    eachProvider(async (provider) => {
      const { caller, requests } = await greetedCall(provider);
      await caller.play(callerAudio('uh-huh'));
      await caller.play(callerAudio('hello-world'));
      const [request] = await waitFor(() => requests().length > 0 && requests(), {
        what: 'the chat request',
      });
      const messages = JSON.stringify(request.body.messages);
      expect(messages).toContain(CALLER_UTTERANCES['hello-world']);
      expect(messages).not.toContain('uh-huh');
      expect(requests()).toHaveLength(1);
      caller.close();
    }));

  it('waits for the rest of a sentence the caller paused in, and answers both parts at once', () =>
    eachProvider(async (provider) => {
      const { caller, turns, requests } = await greetedCall(provider, {
        kind: 'text',
        pieces: ['Thank you, I have noted it.'],
      });
      // "my number is", a pause of a second (and eSpeak NG's own padding), then the digits.
      const first = await caller.play(callerAudio('my-number-is'), 1_000);
      const second = await caller.play(callerAudio('number-digits'));
      const said = `${CALLER_UTTERANCES['my-number-is']} ${CALLER_UTTERANCES['number-digits']}`;
      const stored = await waitFor(async () => ((await turns()).length === 3 ? turns() : false), {
        timeoutMs: 10_000,
        what: 'the reply stored',
      });
      expect(stored.slice(1)).toEqual([
        { role: 'callee', text: said },
        { role: 'agent', text: 'Thank you, I have noted it.' },
      ]);
      expect(requests()).toHaveLength(1);
      expect(requests()[0].body.messages).toEqual(
        expect.arrayContaining([{ role: 'user', content: said }]),
      );
      // Not a frame of the agent from the first word to the last: no reply to "my number is".
      const during = caller.frames.filter((f) => f.at > first.startedAt && f.at <= second.endedAt);
      expect(during).toHaveLength(0);
      expect(caller.frames.at(-1)!.at).toBeGreaterThan(second.endedAt);
      caller.close();
    }));

  it('clears the reply within 600 ms when the caller barges in, and stores what was heard to the word', async () => {
    const metrics = voice.t.app.get(SwitchboardMetrics);
    const count = async (metric: {
      get(): Promise<{ values: Array<{ metricName?: string; value: number }> }>;
    }) =>
      (await metric.get()).values.find((v) => !v.metricName || v.metricName.endsWith('_count'))
        ?.value ?? 0;
    const [turnsBefore, bargeInsBefore] = [
      await count(metrics.voiceTurnLatency),
      await count(metrics.voiceBargeIns),
    ];
    await eachProvider(async (provider) => {
      const long = Array.from(
        { length: 12 },
        (_, i) => `Sentence number ${i + 1} of a long reply.`,
      );
      const { caller, turns } = await greetedCall(provider, {
        kind: 'text',
        pieces: [long.join(' ')],
      });
      const asked = await caller.play(callerAudio('hello-world'));
      await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-1-2'), {
        timeoutMs: 10_000,
        what: 'the reply under way',
      });
      const { startedAt } = await caller.play(callerAudio('no-thank-you'), 1_000);
      const clearedAt = await waitFor(() => caller.clears.at(0) ?? false, { what: 'the clear' });
      // From the first frame of the utterance (its speech starts a little after): within 600 ms.
      expect(clearedAt - startedAt).toBeLessThan(600);
      expect(caller.received.filter((m) => m.event === provider.clearEvent)).toHaveLength(1);

      const said = CALLER_UTTERANCES['no-thank-you'];
      const stored = await waitFor(
        async () => ((await turns()).some((turn) => turn.text === said) ? turns() : false),
        { what: 'the callee turn' },
      );
      const reply = stored.find(
        (turn) => turn.role === 'agent' && turn.text.startsWith('Sentence'),
      );
      // Word-exact: the sentences played whole before the clear, then the words of the one it
      // cut, by the share of its audio (15 frames a sentence) that had been played.
      const played = caller.frames.filter((f) => f.at > asked.endedAt && f.at <= clearedAt).length;
      const whole = Math.floor(played / TONE_FRAMES);
      expect(whole).toBeGreaterThanOrEqual(2);
      expect(whole).toBeLessThan(long.length);
      const cut = heardPart(
        { text: long[whole], mark: '', from: 0, to: TONE_FRAMES, words: [] },
        played % TONE_FRAMES,
      );
      expect(reply!.text).toBe([...long.slice(0, whole), cut].filter(Boolean).join(' '));
      caller.close();
    });
    // Each call's first turn was answered (its latency recorded) and then barged in on.
    expect(await count(metrics.voiceTurnLatency)).toBeGreaterThanOrEqual(turnsBefore + 3);
    expect(await count(metrics.voiceBargeIns)).toBeGreaterThanOrEqual(bargeInsBefore + 3);
  });

  it('resumes the reply from what was not heard when the barge-in brought no words', () =>
    eachProvider(async (provider) => {
      const long = Array.from({ length: 10 }, (_, i) => `Sentence number ${i + 1} of the reply.`);
      const { caller, turns, requests } = await greetedCall(provider, {
        kind: 'text',
        pieces: [long.join(' ')],
      });
      await caller.play(callerAudio('hello-world'));
      await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-1-2'), {
        timeoutMs: 10_000,
        what: 'the reply under way',
      });
      // Long enough to barge in, but nothing the recogniser makes words of: a false interruption.
      await caller.play(FALSE_INTERRUPTION, 1_000);
      const clearedAt = await waitFor(() => caller.clears.at(0) ?? false, { what: 'the clear' });
      const stored = await waitFor(
        async () => (await turns()).find((turn) => turn.text.startsWith('Sentence')) ?? false,
        { timeoutMs: 20_000, what: 'the reply stored' },
      );
      // Said to its end after the clear (the unheard sentences again), and stored whole once.
      expect(stored.text).toBe(long.join(' '));
      const resumed = caller.marks.filter((mark) => mark.at > clearedAt).map((m) => m.name);
      expect(resumed).toContain(`reply-1-${long.length + 1}`);
      expect((await turns()).filter((turn) => turn.role === 'callee')).toHaveLength(1);
      expect(requests()).toHaveLength(1);
      caller.close();
    }));

  it('hangs up at the provider when the model calls end_call', () =>
    eachProvider(async (provider) => {
      const { call, caller } = await greetedCall(provider, {
        kind: 'tool-calls',
        text: 'Goodbye!',
        calls: [{ name: 'end_call', arguments: { reason: 'done' } }],
      });
      await caller.play(callerAudio('no-thank-you'));
      await waitFor(() => provider.hangupRequested(call.id), {
        timeoutMs: 10_000,
        what: 'the hang-up',
      });
      expect(spoken).toContain('Goodbye!');
      expect(await caller.closed).toBe(1000);
    }));

  it('gives the model the keys the caller presses, as a turn of their own before what they say next', () =>
    eachProvider(async (provider) => {
      const { caller, turns, requests } = await greetedCall(
        provider,
        { kind: 'text', pieces: ['You chose seven.'] },
        { kind: 'text', pieces: ['Sure.'] },
      );
      caller.pressKey('7');
      caller.pressKey('2');
      const [first] = await waitFor(() => requests().length > 0 && requests(), {
        timeoutMs: 10_000,
        what: 'the request for the keys',
      });
      expect(first.body.messages).toEqual(
        expect.arrayContaining([
          { role: 'user', content: '[The caller pressed 72 on the keypad]' },
        ]),
      );
      await caller.play(callerAudio('hello-world'));
      const second = await waitFor(() => requests()[1], {
        timeoutMs: 10_000,
        what: 'the request for the words',
      });
      const messages = JSON.stringify(second.body.messages);
      expect(messages).toContain('[The caller pressed 72 on the keypad]');
      expect(messages).toContain(CALLER_UTTERANCES['hello-world']);
      const stored = await waitFor(async () => ((await turns()).length === 5 ? turns() : false), {
        what: 'the stored turns',
      });
      expect(stored.slice(1, 3)).toEqual([
        { role: 'callee', text: '[The caller pressed 72 on the keypad]' },
        { role: 'agent', text: 'You chose seven.' },
      ]);
      caller.close();
    }));

  /**
   * The model asks for an 8-digit account number (collect_digits) and the caller types `typed`,
   * slowly: a pause longer than the keypad's own (1.5 s) does not split the entry. Then the call
   * ends. Eight digits: no id or timestamp of the rows read back holds them by chance.
   */
  async function typedAccountNumber(
    provider: VoiceProvider,
    typed: string,
    privateDigits: boolean,
  ) {
    const { call, caller, turns, requests } = await streamingCall(provider, {
      agent: { privateDigits },
      replies: [
        {
          kind: 'tool-calls',
          text: 'Please type your account number.',
          calls: [{ name: 'collect_digits', arguments: { name: 'account_number', max_digits: 8 } }],
        },
        { kind: 'text', pieces: ['Thank you.'] },
      ],
    });
    await waitFor(() => caller.marks.some((mark) => mark.name === GREETING_MARK), {
      timeoutMs: 10_000,
      what: 'the end of the greeting',
    });
    await caller.play(callerAudio('hello-world'));
    await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-1-1'), {
      timeoutMs: 10_000,
      what: 'the request to type the number',
    });
    for (const key of typed.slice(0, 4)) caller.pressKey(key);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(requests()).toHaveLength(1);
    for (const key of typed.slice(4)) caller.pressKey(key);
    const second = await waitFor(() => requests()[1], {
      timeoutMs: 10_000,
      what: 'the answer to the entry',
    });
    caller.hangUp();
    await provider.complete(call.id);
    const stored = {
      turns: await turns(),
      phoneLog: (
        await voice.t.app
          .get(Database)
          .db.select()
          .from(phoneLogs)
          .where(eq(phoneLogs.id, call.log.id))
      )[0],
      event: await completedEvent(call.log.id),
      delivered: await deliveredCompletion(call.log.id),
      batchDetails: await batchDetailsLog(call.batch.id),
    };
    return { modelHeard: JSON.stringify(second.body.messages), ...stored };
  }

  it('collects the number the model asks for as typed (collect_digits); private digits are sealed at rest and reach call.completed alone', () =>
    eachProvider(async (provider) => {
      const typed = '43219876';
      const stored = await typedAccountNumber(provider, typed, true);
      expect(stored.modelHeard).toContain(
        '[The caller entered 8 digits (kept from you) for account_number]',
      );
      expect(stored.modelHeard).not.toContain(typed);
      expect(JSON.stringify(stored.turns)).not.toContain(typed);
      // At rest: neither the phone log nor the outbox row holds them in clear.
      expect(JSON.stringify(stored.phoneLog)).not.toContain(typed);
      expect(stored.phoneLog.collectedDigits).toEqual({});
      expect(stored.phoneLog.sealedDigits).toEqual({
        account_number: { length: 8, sealed: expect.stringMatching(/^v1\./) },
      });
      expect(JSON.stringify(stored.event)).not.toContain(typed);
      expect(stored.event.data.collected_digits).toEqual({});
      expect(stored.event.sealedData).toMatch(/^v1\./);
      // The webhook alone gets them, signed.
      expect(stored.delivered.data.collected_digits).toEqual({ account_number: typed });
      expect(stored.batchDetails.collectedDigits).toEqual({ account_number: '••••••••' });
    }));

  it("shows the digits of an agent without privateDigits everywhere they're told", () =>
    eachProvider(async (provider) => {
      const typed = '56781234';
      const stored = await typedAccountNumber(provider, typed, false);
      expect(stored.modelHeard).toContain(`[The caller entered ${typed} for account_number]`);
      expect(stored.phoneLog.collectedDigits).toEqual({ account_number: typed });
      expect(stored.phoneLog.sealedDigits).toEqual({});
      expect(stored.event.data.collected_digits).toEqual({ account_number: typed });
      expect(stored.event.sealedData).toBeNull();
      expect(stored.delivered.data.collected_digits).toEqual({ account_number: typed });
      expect(stored.batchDetails.collectedDigits).toEqual({ account_number: typed });
    }));

  it('presses keys for the model (press_keys) after its words: through Plivo and Telnyx, in band on Twilio', () =>
    eachProvider(async (provider) => {
      const { call, caller, turns } = await greetedCall(provider, {
        kind: 'tool-calls',
        text: 'Choosing sales.',
        calls: [{ name: 'press_keys', arguments: { keys: '1, #' } }],
      });
      const { endedAt } = await caller.play(callerAudio('hello-world'));
      const stored = await waitFor(async () => ((await turns()).length === 4 ? turns() : false), {
        timeoutMs: 10_000,
        what: 'the keys pressed',
      });
      expect(stored.slice(2)).toEqual([
        { role: 'agent', text: 'Choosing sales.' },
        { role: 'agent', text: '[Pressed 1# on the keypad]' },
      ]);
      const after = caller.frames.filter((frame) => frame.at > endedAt);
      const inBand = detectDtmf(Buffer.concat(after.map((frame) => frame.audio)));
      // Telephone events where the provider takes them (IVRs behind any codec hear them), else
      // tones in the stream: never both.
      if (provider.integration === 'provider_two') {
        expect(inBand).toBe('1#');
        expect(provider.digitsSent(call.id)).toEqual([]);
      } else {
        expect(provider.digitsSent(call.id)).toEqual(['1#']);
        expect(inBand).toBe('');
      }
      caller.close();
    }));

  it('plays the keys in band when the provider refuses to press them', async () => {
    const provider = voice.providers.find((p) => p.integration === 'provider_three')!;
    // Telnyx's answer to a call that cannot take DTMF now: 422, nothing pressed.
    voice.fakes.telnyx.failNext(1, 422, { method: 'POST', path: /actions\/send_dtmf$/ });
    const { caller, turns } = await greetedCall(provider, {
      kind: 'tool-calls',
      text: 'Choosing support.',
      calls: [{ name: 'press_keys', arguments: { keys: '2' } }],
    });
    const { endedAt } = await caller.play(callerAudio('hello-world'));
    await waitFor(async () => (await turns()).length === 4, {
      timeoutMs: 10_000,
      what: 'the keys pressed',
    });
    const after = caller.frames.filter((frame) => frame.at > endedAt);
    expect(detectDtmf(Buffer.concat(after.map((frame) => frame.audio)))).toBe('2');
    caller.close();
  });

  it('never presses keys twice: a press the provider may have made (it never answered) is not played again, and holds the call at most 3 s', async () => {
    const provider = voice.providers.find((p) => p.integration === 'provider_one')!;
    voice.fakes.plivo.stallNext(1, { method: 'POST', path: /\/DTMF\/$/ });
    const { call, caller, turns } = await greetedCall(provider, {
      kind: 'tool-calls',
      text: 'Choosing billing.',
      calls: [{ name: 'press_keys', arguments: { keys: '3' } }],
    });
    const { endedAt } = await caller.play(callerAudio('hello-world'));
    await waitFor(() => voice.fakes.plivo.requestsTo('POST', '/DTMF/').length > 0, {
      what: 'the key press request',
    });
    const askedAt = Date.now();
    await waitFor(async () => (await turns()).length === 4, {
      timeoutMs: 10_000,
      what: 'the keys pressed',
    });
    // KEY_PRESS_TIMEOUT_MS, not the provider client's 10 s.
    expect(Date.now() - askedAt).toBeLessThan(5_000);
    expect((await turns()).at(-1)).toEqual({ role: 'agent', text: '[Pressed 3 on the keypad]' });
    const after = caller.frames.filter((frame) => frame.at > endedAt);
    expect(detectDtmf(Buffer.concat(after.map((frame) => frame.audio)))).toBe('');
    expect(provider.digitsSent(call.id)).toEqual([]);
    caller.close();
  });

  it('never presses keys twice: a press the provider answered with a 5xx (it may have pressed) is not played again', async () => {
    const provider = voice.providers.find((p) => p.integration === 'provider_three')!;
    voice.fakes.telnyx.failNext(1, 502, { method: 'POST', path: /actions\/send_dtmf$/ });
    const { call, caller, turns } = await greetedCall(provider, {
      kind: 'tool-calls',
      text: 'Choosing returns.',
      calls: [{ name: 'press_keys', arguments: { keys: '4' } }],
    });
    const { endedAt } = await caller.play(callerAudio('hello-world'));
    await waitFor(async () => (await turns()).length === 4, {
      timeoutMs: 10_000,
      what: 'the keys pressed',
    });
    const presses = voice.fakes.telnyx
      .requestsTo('POST', /actions\/send_dtmf$/)
      .filter((r) => decodeURIComponent(r.path).includes(`/calls/${call.id}/`));
    expect(presses).toHaveLength(1);
    expect((await turns()).at(-1)).toEqual({ role: 'agent', text: '[Pressed 4 on the keypad]' });
    const after = caller.frames.filter((frame) => frame.at > endedAt);
    expect(detectDtmf(Buffer.concat(after.map((frame) => frame.audio)))).toBe('');
    caller.close();
  });

  it('puts the number on the DNC list when the model calls record_opt_out', () =>
    eachProvider(async (provider) => {
      const { call, caller } = await greetedCall(provider, {
        kind: 'tool-calls',
        calls: [{ name: 'record_opt_out', arguments: { reason: 'asked' } }],
      });
      const listed = async () =>
        (
          (
            await voice.t.http
              .get('/api/dnc/check')
              .query({ phoneNumber: call.record.phoneNumber })
              .set({ Authorization: `Bearer ${voice.admin.token}` })
          ).body as { data: { onDncList: boolean } }
        ).data.onDncList;
      expect(await listed()).toBe(false);
      await caller.play(callerAudio('stop-calling'));
      await waitFor(listed, { timeoutMs: 10_000, what: 'the DNC entry' });
      await waitFor(() => provider.hangupRequested(call.id), {
        timeoutMs: 10_000,
        what: 'the hang-up',
      });
    }));

  it('lets the caller cut the greeting short (a backchannel does not), keeping what they heard', () =>
    eachProvider(async (provider) => {
      const greeting = Array.from({ length: 12 }, (_, i) => `Part ${i + 1} of the greeting.`);
      const { caller, turns, requests } = await streamingCall(provider, {
        greeting: greeting.join(' '),
        replies: [{ kind: 'text', pieces: ['Sorry to bother you.'] }],
      });
      await caller.play(callerAudio('uh-huh'), 600);
      expect(caller.clears).toHaveLength(0);
      const { startedAt } = await caller.play(callerAudio('no-thank-you'), 1_000);
      const clearedAt = await waitFor(() => caller.clears.at(0) ?? false, { what: 'the clear' });
      expect(clearedAt - startedAt).toBeLessThan(600);
      expect(caller.received.filter((m) => m.event === provider.clearEvent)).toHaveLength(1);
      expect(caller.marks.map((mark) => mark.name)).not.toContain(GREETING_MARK);

      const said = CALLER_UTTERANCES['no-thank-you'];
      await waitFor(() => requests().length > 0, { what: 'the chat request' });
      const stored = await waitFor(async () => ((await turns()).length === 3 ? turns() : false), {
        what: 'the stored turns',
      });
      expect(stored.slice(1)).toEqual([
        { role: 'callee', text: said },
        { role: 'agent', text: 'Sorry to bother you.' },
      ]);
      const played = caller.marks.filter(
        (mark) => mark.name.startsWith('greeting-') && mark.at <= clearedAt,
      ).length;
      const kept = keptSentences(stored[0].text, greeting);
      // The backchannel alone took 1.3 s: the greeting had played on through it.
      expect(kept).toBeGreaterThanOrEqual(3);
      expect(kept).toBeLessThanOrEqual(played);
      expect(requests()[0].body.messages).toEqual(
        expect.arrayContaining([
          { role: 'assistant', content: stored[0].text },
          { role: 'user', content: said },
        ]),
      );
      caller.close();
    }));
});
