/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import { GREETING_MARK } from '../../src/modules/voice/session/conversation';
import {
  HOLD_ON,
  SERVICE_FAILURE,
  STILL_THERE,
  TIME_UP,
} from '../../src/modules/voice/session/conversation-phrases';
import type { SpeechEngines } from '../../src/modules/voice/speech/speech-engines';
import { ChatFake, type ChatReply } from '../fakes/chat.fake';
import { fixtureRecognition } from '../fakes/fixture-recognition';
import { MediaStreamCaller } from '../fakes/media-stream-caller';
import { ulawTone } from '../fakes/ulaw-tone';
import { callerAudio, VOICE_FIXTURES_DIR } from '../support/caller-utterances';
import {
  onEachProvider,
  placeVoiceCall,
  startVoiceApp,
  type VoiceApp,
  type VoiceProvider,
} from '../support/voice-providers';
import { waitFor } from '../support/wait-for';

jest.setTimeout(120_000);

/** 300 ms of a 440 Hz tone per sentence synthesized. */
const TONE = ulawTone(440, 300);
/** Speech the fixture recogniser makes no words of (a cough, a mumble): a turn of nothing. */
const MUMBLE = readFileSync(path.join(VOICE_FIXTURES_DIR, 'sandbox-1-hello.ulaw'));

/**
 * The call path under faults (issue #28) on the Twilio, Plivo and Telnyx media streams: a speech
 * engine or the model that fails or never answers, a caller who coughs, a stream that dies.
 * Each scenario runs one call per provider at once on one app.
 */
describe('a live call under faults', () => {
  /** Texts whose synthesis fails; every text asked for, with when. */
  const unspeakable = new Set<string>();
  const spoken: Array<{ text: string; at: number }> = [];
  let recognitionFails = false;
  let chat: ChatFake;
  let voice: VoiceApp;
  let calls = 0;

  const engines = (): SpeechEngines => {
    const recognition = fixtureRecognition();
    return {
      stt: {
        open: (options) => {
          const stream = recognition.open(options);
          return {
            ...stream,
            finish: (signal, speech) =>
              recognitionFails
                ? Promise.reject(new Error('OpenAI-compatible speech answered HTTP 500'))
                : stream.finish(signal, speech),
          };
        },
      },
      tts: {
        async *synthesize(text) {
          spoken.push({ text, at: performance.now() });
          await Promise.resolve();
          if (unspeakable.has(text)) throw new Error('OpenAI-compatible speech answered HTTP 500');
          yield TONE;
        },
      },
      readiness: () => Promise.resolve({ ready: true }),
    };
  };

  beforeAll(async () => {
    chat = await ChatFake.start();
    voice = await startVoiceApp({
      speechEngines: engines(),
      // A short idle allowance: a reply the session stops reading fails in 1 s, not 10.
      env: { LLM_API_URL: chat.url, LLM_API_KEY: 'test-key', LLM_IDLE_TIMEOUT_MS: '1000' },
    });
  });
  afterAll(async () => {
    await voice?.close();
    await chat?.stop();
  });
  afterEach(() => {
    unspeakable.clear();
    recognitionFails = false;
  });

  const eachProvider = (scenario: (provider: VoiceProvider) => Promise<void>) =>
    onEachProvider(voice.providers, scenario);

  /** A call answered, streaming, its greeting played; the model's replies are its own. */
  async function greetedCall(
    provider: VoiceProvider,
    options: { replies?: ChatReply[]; interruptible?: boolean; maxCallSeconds?: number } = {},
  ) {
    const tag = `faults-${(calls += 1)}`;
    const call = await placeVoiceCall(voice, provider, {
      greeting: `Hello, this is Ada (${tag}).`,
      prompt: `You are Ada (${tag}).`,
      voice: null,
      language: 'en-US',
      ...(options.interruptible === undefined ? {} : { interruptible: options.interruptible }),
      ...(options.maxCallSeconds === undefined ? {} : { maxCallSeconds: options.maxCallSeconds }),
    });
    chat.replyTo(tag, ...(options.replies ?? []));
    const stream = await provider.answer(call.id);
    const answeredAt = Date.now();
    const caller = await MediaStreamCaller.connect(provider.integration, stream.url);
    caller.start(stream.callId, stream.token);
    await waitFor(() => caller.marks.some((mark) => mark.name === GREETING_MARK), {
      timeoutMs: 10_000,
      what: 'the end of the greeting',
    });
    // The line's silence, as providers stream it (and the fake goes on streaming it).
    await caller.play(Buffer.alloc(0), 100);
    const log = async () =>
      (await voice.t.app
        .get(PhoneLogsRepository)
        .findById(voice.admin.organizationId, call.log.id))!;
    /**
     * When the agent said `text` (Date.now() time), as its stored turn says: its own lines are
     * synthesized once per process and then queued from memory, so the engine is not asked.
     */
    const saidAt = async (text: string) => {
      const turn = (await log()).turns.find((said) => said.role === 'agent' && said.text === text);
      return turn ? Date.parse(turn.startedAt) : false;
    };
    const hungUp = () =>
      waitFor(() => provider.hangupRequested(call.id), { timeoutMs: 20_000, what: 'the hang-up' });
    return {
      call,
      caller,
      log,
      saidAt,
      hungUp,
      answeredAt,
      requests: () => chat.requestsMentioning(tag),
    };
  }

  it('a synthesis error in a reply: the process lives, the caller hears an apology and the call ends at the provider, naming the failure', () =>
    eachProvider(async (provider) => {
      const answer = `We open at nine on ${provider.integration}.`;
      const { call, caller, log, saidAt, hungUp } = await greetedCall(provider, {
        replies: [{ kind: 'text', pieces: [answer] }],
      });
      unspeakable.add(answer);
      await caller.play(callerAudio('opening-hours'));
      await hungUp();
      expect(await saidAt(SERVICE_FAILURE)).not.toBe(false);
      expect(spoken.map((said) => said.text)).toContain(answer);
      // The batch's details say why the agent ended the call.
      const details = await voice.t.http
        .get(`/api/call/batch-details/${call.batch.id}`)
        .set({ Authorization: `Bearer ${voice.admin.token}` })
        .expect(200);
      const [record] = (details.body as { data: { data: Array<{ phoneLogs: unknown[] }> } }).data
        .data;
      expect(record.phoneLogs.at(-1)).toMatchObject({
        endedBy: 'service_failure',
        failedDependency: 'tts',
      });
      expect(await log()).toMatchObject({
        sessionEndedBy: 'service_failure',
        failedDependency: 'tts',
      });
      caller.close();
    }));

  it('recognition that fails for good: an apology and the hang-up, naming speech-to-text', () =>
    eachProvider(async (provider) => {
      const { caller, log, hungUp } = await greetedCall(provider);
      recognitionFails = true;
      await caller.play(callerAudio('opening-hours'));
      await hungUp();
      expect(await log()).toMatchObject({
        sessionEndedBy: 'service_failure',
        failedDependency: 'stt',
      });
      caller.close();
    }));

  it('a mumble after the greeting does not leave the caller in silence: the agent asks again', () =>
    eachProvider(async (provider) => {
      const { caller, saidAt } = await greetedCall(provider);
      await caller.play(MUMBLE, 800);
      const mumbled = Date.now();
      const asked = await waitFor(() => saidAt(STILL_THERE), {
        timeoutMs: 12_000,
        what: 'the re-prompt',
      });
      // The silence allowance (8 s) counted from the mumble, not for ever.
      expect(asked - mumbled).toBeLessThan(10_000);
      caller.close();
    }));

  it('a model that never answers: "one moment" within 4 s, then an apology and the hang-up', () =>
    eachProvider(async (provider) => {
      const { caller, log, saidAt, hungUp, requests } = await greetedCall(provider, {
        replies: [{ kind: 'stall' }],
      });
      await caller.play(callerAudio('opening-hours'), 0);
      const stopped = Date.now();
      await waitFor(() => requests().length === 1, { what: 'the chat request' });
      const holdOn = await waitFor(() => saidAt(HOLD_ON), {
        timeoutMs: 8_000,
        what: 'the hold-on line',
      });
      expect(holdOn - stopped).toBeLessThan(4_500);
      await hungUp();
      expect(await log()).toMatchObject({
        sessionEndedBy: 'service_failure',
        failedDependency: 'llm',
      });
      caller.close();
    }));

  it('a non-interruptible agent answers two turns said during its reply once, not twice', () =>
    eachProvider(async (provider) => {
      const long = Array.from({ length: 20 }, (_, i) => `Part ${i + 1} of the answer.`).join(' ');
      const { caller, requests } = await greetedCall(provider, {
        interruptible: false,
        replies: [
          { kind: 'text', pieces: [long] },
          { kind: 'text', pieces: ['Both answered.'] },
        ],
      });
      await caller.play(callerAudio('opening-hours'));
      await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-1-1'), {
        timeoutMs: 10_000,
        what: 'the reply under way',
      });
      await caller.play(callerAudio('yes-please'), 700);
      await caller.play(callerAudio('hello-world'), 700);
      await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-2-1'), {
        timeoutMs: 20_000,
        what: 'the second reply',
      });
      // Two turns answered separately would have sent their requests together, before this.
      expect(requests()).toHaveLength(2);
      expect(JSON.stringify(requests()[1].body.messages)).toContain('hello world');
      caller.close();
    }));

  it("reads a slow model's reply on while the caller's noise pauses it, and speaks all of it", () =>
    eachProvider(async (provider) => {
      // Eight sentences, a piece every 400 ms: the model still writes when the caller talks.
      const said = Array.from({ length: 8 }, (_, i) => `Number ${i + 1}, and so on.`);
      const pieces = said.flatMap((sentence) => {
        const [head, tail] = sentence.split(', ');
        return [`${head}, `, `${tail} `];
      });
      const { caller, log } = await greetedCall(provider, {
        replies: [{ kind: 'text', pieces, gapMs: 400 }],
      });
      await caller.play(callerAudio('opening-hours'));
      await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-1-1'), {
        timeoutMs: 10_000,
        what: 'the first sentence heard',
      });
      // Speech the recogniser makes nothing of: a barge-in that pauses the reply ~3 s, longer
      // than the model's idle allowance (LLM_IDLE_TIMEOUT_MS), then a verdict of nothing.
      await caller.play(Buffer.concat([MUMBLE, MUMBLE]), 800);
      const stored = await waitFor(
        async () => (await log()).turns.find((turn) => turn.text.startsWith('Number 1')) ?? false,
        { timeoutMs: 20_000, what: 'the whole reply stored' },
      );
      expect(stored.text).toBe(said.join(' '));
      caller.close();
    }));

  it('says the time-up line before the provider cuts the call (its limit counts from the answer)', () =>
    eachProvider(async (provider) => {
      const { answeredAt, saidAt, hungUp, log } = await greetedCall(provider, {
        maxCallSeconds: 12,
      });
      const said = await waitFor(() => saidAt(TIME_UP), {
        timeoutMs: 15_000,
        what: 'the time-up line',
      });
      // Early enough for its few seconds of audio to be heard within the limit.
      expect(said - answeredAt).toBeLessThan(12_000 - 3_000);
      await hungUp();
      expect(await log()).toMatchObject({ sessionEndedBy: 'max_duration' });
    }));

  it('a socket closed without the provider ending the call: the call is hung up at the provider', () =>
    eachProvider(async (provider) => {
      const { caller, hungUp, log } = await greetedCall(provider);
      caller.close();
      await hungUp();
      expect(await log()).toMatchObject({
        sessionEndedBy: 'service_failure',
        failedDependency: 'media',
      });
    }));

  it('a stream that goes quiet (half-open): the call is hung up at the provider within seconds', () =>
    eachProvider(async (provider) => {
      const { caller, hungUp } = await greetedCall(provider);
      const quietAt = performance.now();
      caller.goQuiet();
      await hungUp();
      expect(performance.now() - quietAt).toBeLessThan(8_000);
      caller.close();
    }));
});
