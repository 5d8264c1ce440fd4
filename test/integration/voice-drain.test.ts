/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { withTimeout } from '../../src/common/with-timeout';
import { Database } from '../../src/database';
import { ProcessDrain } from '../../src/lifecycle/process-drain';
import { callRecords } from '../../src/modules/call-records/call-records.schema';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import { GREETING_MARK } from '../../src/modules/voice/session/conversation';
import { DRAINING } from '../../src/modules/voice/session/conversation-phrases';
import { ChatFake } from '../fakes/chat.fake';
import { MediaStreamCaller } from '../fakes/media-stream-caller';
import { scriptedEngines } from '../fakes/scripted-engines';
import {
  placeVoiceCall,
  startVoiceApp,
  type VoiceApp,
  type VoiceProvider,
} from '../support/voice-providers';
import { waitFor } from '../support/wait-for';

jest.setTimeout(120_000);

const GRACE_SECONDS = 4;

/** Synthesis a known tone; no caller words are needed. */
const engines = scriptedEngines([], []);

/**
 * A process that drains (SIGTERM, ProcessDrain) with calls live on the three providers: it stops
 * being ready and takes no new call, lets the live ones go on for DRAIN_GRACE_SECONDS, then each
 * hears a closing line, is hung up at the provider, and its contact is called again.
 */
describe('draining with live calls', () => {
  let chat: ChatFake;
  let voice: VoiceApp;

  beforeAll(async () => {
    chat = await ChatFake.start();
    voice = await startVoiceApp({
      speechEngines: engines,
      env: {
        LLM_API_URL: chat.url,
        LLM_API_KEY: 'test-key',
        DRAIN_GRACE_SECONDS: String(GRACE_SECONDS),
      },
    });
  });
  afterAll(async () => {
    await voice?.close();
    await chat?.stop();
  });

  async function liveCall(provider: VoiceProvider) {
    const call = await placeVoiceCall(voice, provider, {
      greeting: 'Hello, this is Ada.',
      prompt: 'You are Ada.',
      voice: null,
      language: 'en-US',
    });
    const stream = await provider.answer(call.id);
    const caller = await MediaStreamCaller.connect(provider.integration, stream.url);
    caller.start(stream.callId, stream.token);
    await waitFor(() => caller.marks.some((mark) => mark.name === GREETING_MARK), {
      timeoutMs: 10_000,
      what: 'the end of the greeting',
    });
    await caller.play(Buffer.alloc(0), 100);
    return { call, caller, stream };
  }

  it('keeps live calls through the grace period, then ends them politely and calls their contacts again', async () => {
    const live = await Promise.all(voice.providers.map((provider) => liveCall(provider)));
    const [twilio] = voice.providers;
    // A call placed before the drain and answered after it: a ready process must take it.
    const late = await placeVoiceCall(voice, twilio, { greeting: 'Hi.', voice: null });
    await voice.fakes.twilio.advanceCall(late.id, 'ringing');

    const drainedAt = Date.now();
    const drained = voice.t.app.get(ProcessDrain).run();

    // Not ready at once; no new answer, no new media stream.
    await voice.t.http.get('/health/ready').expect(503);
    await voice.fakes.twilio.advanceCall(late.id, 'in-progress');
    expect(voice.fakes.twilio.call(late.id).answerFetch?.status).toBe(503);
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(live[0].stream.url);
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
      socket.on('error', () => undefined);
    });
    expect(refused).toBe(503);

    // Every live call is hung up, and none before the grace period.
    await waitFor(
      () => voice.providers.every((provider, i) => provider.hangupRequested(live[i].call.id)),
      { timeoutMs: (GRACE_SECONDS + 15) * 1_000, what: 'the hang-ups' },
    );
    expect(Date.now() - drainedAt).toBeGreaterThanOrEqual(GRACE_SECONDS * 1_000);
    // The drain lasts until the providers' final callbacks ended the attempts (the process still
    // takes them): one that came once it had stopped would leave its contact uncalled.
    let settled = false;
    void drained.then(() => (settled = true));

    const logs = voice.t.app.get(PhoneLogsRepository);
    for (const [i, provider] of voice.providers.entries()) {
      const { call } = live[i];
      const log = (await logs.findById(voice.admin.organizationId, call.log.id))!;
      expect(log).toMatchObject({ sessionEndedBy: 'drain' });
      expect(log.turns.at(-1)).toMatchObject({ role: 'agent', text: DRAINING });
      expect(settled).toBe(false);
      // The provider's final callback: the attempt failed on our side, the contact is due again.
      await provider.complete(call.id);
      const ended = await waitFor(
        async () => {
          const now = (await logs.findById(voice.admin.organizationId, call.log.id))!;
          return now.callStatus !== 'in-progress' && now;
        },
        { what: `${provider.integration}: the attempt's end` },
      );
      expect(ended.callStatus).toBe('failed');
      const [record] = await voice.t.app
        .get(Database)
        .db.select()
        .from(callRecords)
        .where(eq(callRecords.id, call.record.id));
      expect(record).toMatchObject({ status: 'pending' });
      expect(record.nextAttemptAt).not.toBeNull();
    }
    await withTimeout(drained, 2_000);
  });
});
