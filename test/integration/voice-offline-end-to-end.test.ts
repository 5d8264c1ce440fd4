/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import { GREETING_MARK } from '../../src/modules/voice/session/conversation';
import { PocketsphinxSpeechToText } from '../../src/modules/voice/speech/offline/pocketsphinx-stt';
import { ChatFake } from '../fakes/chat.fake';
import { loudness, MediaStreamCaller } from '../fakes/media-stream-caller';
import { callerAudio } from '../support/caller-utterances';
import { placeVoiceCall, startVoiceApp, type VoiceApp } from '../support/voice-providers';
import { waitFor } from '../support/wait-for';

// PocketSphinx is slow on a busy box (its model loads once per decoder, each turn decodes for
// about a second on an idle core): the bounds below are generous, the test waits on conditions.
jest.setTimeout(180_000);

const GREETING = 'Hello Grace, this is Ada from Acme.';
const REPLY = ['Of course.', 'We will call you back tomorrow morning.'];

// The offline engine for real, with no speech fakes: Silero VAD finds the caller's turn,
// PocketSphinx transcribes it, eSpeak NG speaks the greeting and the reply. Only the provider
// (Twilio's media stream) and the chat model are fakes speaking their wire protocols.
describe('a call on the offline engine, end to end', () => {
  let chat: ChatFake;
  let voice: VoiceApp;

  beforeAll(async () => {
    chat = await ChatFake.start();
    voice = await startVoiceApp({
      env: {
        STT_PROVIDER: 'offline',
        TTS_PROVIDER: 'offline',
        LLM_API_URL: chat.url,
        LLM_API_KEY: 'test-key',
      },
    });
  });
  afterAll(async () => {
    await voice?.close();
    await chat?.stop();
  });

  it('greets, recognises what the caller said, asks the model with it and speaks the reply', async () => {
    const [twilio] = voice.providers;
    const call = await placeVoiceCall(voice, twilio, {
      greeting: GREETING,
      voice: null,
      language: 'en-US',
    });
    chat.reply({ kind: 'text', pieces: [REPLY.join(' ')] });
    const stream = await twilio.answer(call.id);
    const caller = await MediaStreamCaller.connect(twilio.integration, stream.url);
    caller.start(stream.callId, stream.token);
    await waitFor(() => caller.marks.some((mark) => mark.name === GREETING_MARK), {
      timeoutMs: 30_000,
      what: 'the greeting',
    });
    const greeting = [...caller.frames];
    // eSpeak NG's speech, well over a second of it, not silence.
    expect(greeting.length).toBeGreaterThan(50);
    expect(loudness(greeting)).toBeGreaterThan(500);

    const { endedAt } = await caller.play(callerAudio('call-back'));
    const [request] = await waitFor(() => chat.requests.length > 0 && chat.requests, {
      timeoutMs: 60_000,
      what: 'the chat request',
    });
    const messages = request.body.messages as Array<{ role: string; content: string }>;
    const heard = messages.at(-1)!;
    // PocketSphinx on 8 kHz synthetic speech: "can you pay only back tomorrow morning".
    expect(heard.role).toBe('user');
    expect(heard.content).toMatch(/\btomorrow morning\b/);
    expect(messages).toContainEqual({ role: 'assistant', content: GREETING });

    await waitFor(() => caller.marks.some((mark) => mark.name === 'reply-1-2'), {
      timeoutMs: 60_000,
      what: 'the reply played',
    });
    const reply = caller.frames.filter((frame) => frame.at > endedAt);
    expect(reply.length).toBeGreaterThan(75);
    expect(loudness(reply)).toBeGreaterThan(500);

    const log = await waitFor(
      async () => {
        const row = await voice.t.app
          .get(PhoneLogsRepository)
          .findById(voice.admin.organizationId, call.log.id);
        return row && row.turns.length >= 3 ? row : false;
      },
      { what: 'the stored turns' },
    );
    // (A silent caller is asked "Are you still there?" later: a fourth turn may follow.)
    expect(log.turns.slice(0, 3).map(({ role, text }) => ({ role, text }))).toEqual([
      { role: 'agent', text: GREETING },
      { role: 'callee', text: heard.content },
      { role: 'agent', text: REPLY.join(' ') },
    ]);
    // What eSpeak NG said is the model's reply: PocketSphinx hears it back.
    const listener = new PocketsphinxSpeechToText(1);
    const spoken = await listener
      .transcribe(Buffer.concat(reply.map((f) => f.audio)))
      .finally(() => listener.close());
    expect(spoken).toMatch(/\btomorrow\b/);
    caller.close();
  });
});
