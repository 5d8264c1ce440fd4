/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { SwitchboardMetrics } from '../../src/metrics/switchboard-metrics';
import { ChatFake } from '../fakes/chat.fake';
import { loudness, MediaStreamCaller } from '../fakes/media-stream-caller';
import { DeepgramFake, OpenAiSpeechFake } from '../fakes/speech';
import { callerAudio } from '../support/caller-utterances';
import {
  answerAndHearGreeting,
  placeVoiceCall,
  startVoiceApp,
  type VoiceApp,
} from '../support/voice-providers';
import { waitFor } from '../support/wait-for';
import { metricValue } from './speech/engine-config';

jest.setTimeout(120_000);

const GREETING = 'Hello Grace, this is Ada from Acme.';
const HEARD = 'what are your opening hours';
const REPLY = 'We open at nine.';

// A live call through the running service (the media stream of POST /api/telephony/.../answer)
// while every outside engine fails: the configured synthesis service answers 503 (eSpeak NG, the
// fallback, speaks), the Deepgram socket is cut in the middle of the caller's question (it
// reconnects and hears the question whole) and the chat model never sends a first token (the
// fallback model answers within LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS).
describe('a live call whose speech and chat services fail', () => {
  let speech: OpenAiSpeechFake;
  let deepgram: DeepgramFake;
  let chat: ChatFake;
  let fallbackChat: ChatFake;
  let voice: VoiceApp;

  beforeAll(async () => {
    speech = new OpenAiSpeechFake('sk-tts');
    deepgram = new DeepgramFake('dg-key');
    [chat, fallbackChat] = await Promise.all([ChatFake.start(), ChatFake.start()]);
    voice = await startVoiceApp({
      env: {
        STT_PROVIDER: 'deepgram',
        STT_API_URL: await deepgram.listen(),
        STT_API_KEY: 'dg-key',
        TTS_PROVIDER: 'openai',
        TTS_API_URL: await speech.listen(),
        TTS_API_KEY: 'sk-tts',
        TTS_FALLBACK_PROVIDER: 'offline',
        LLM_API_URL: chat.url,
        LLM_API_KEY: 'sk-chat',
        LLM_FALLBACK_API_URL: fallbackChat.url,
        LLM_VOICE_FIRST_TOKEN_TIMEOUT_MS: '2000',
      },
    });
  });
  /** A call on Twilio's media stream whose greeting has played to its end. */
  async function greetedCall(): Promise<MediaStreamCaller> {
    const [twilio] = voice.providers;
    const call = await placeVoiceCall(voice, twilio, {
      greeting: GREETING,
      voice: null,
      language: 'en-US',
    });
    return answerAndHearGreeting(twilio, call.id);
  }

  afterAll(async () => {
    await voice?.close();
    await Promise.all([speech?.close(), deepgram?.close(), chat?.stop(), fallbackChat?.stop()]);
  });

  it('greets, hears and answers the caller with the fallbacks, each within its deadline', async () => {
    speech.faults.always({ kind: 'status', status: 503 });
    // The first socket dies 40 frames (0.8 s) into the caller's question.
    deepgram.faults.next({ kind: 'cut', afterBytes: 40 * 160 });
    deepgram.transcripts = [HEARD];
    chat.respond = () => ({ kind: 'stall', pieces: [] });
    fallbackChat.reply({ kind: 'text', pieces: [REPLY] });

    const caller = await greetedCall();
    // eSpeak NG spoke it: the synthesis service was asked (a try and a retry) and failed.
    expect(speech.speeches.length).toBeGreaterThanOrEqual(2);
    const greeting = [...caller.frames];
    expect(greeting.length).toBeGreaterThan(50);
    expect(loudness(greeting)).toBeGreaterThan(500);
    // The greeting's first audio came within TTS_FIRST_AUDIO_TIMEOUT_MS (3 s) of the start.
    expect(greeting[0].at - caller.startedAt).toBeLessThan(3_000 + 1_000);

    const { endedAt } = await caller.play(callerAudio('opening-hours'));
    const [request] = await waitFor(
      () => fallbackChat.requests.length > 0 && fallbackChat.requests,
      { timeoutMs: 20_000, what: 'the fallback model to be asked' },
    );
    // The new Deepgram socket heard the whole question, and the model was given its words.
    expect(deepgram.streams.length).toBeGreaterThanOrEqual(2);
    const messages = request.body.messages as Array<{ role: string; content: string }>;
    expect(messages.at(-1)).toEqual({ role: 'user', content: HEARD });
    expect(chat.requests.length).toBeGreaterThanOrEqual(1);
    // The primary model had half of the 2 s voice deadline, not its 10-15 s limits.
    expect(request.receivedAt - chat.requests[0].receivedAt).toBeLessThan(1_500);

    await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('reply-')), {
      timeoutMs: 20_000,
      what: 'the reply played',
    });
    const reply = caller.frames.filter((frame) => frame.at > endedAt);
    expect(loudness(reply)).toBeGreaterThan(500);
    // End of turn, recognition, the model's 1 s and the fallback's answer, synthesis: seconds.
    expect(reply[0].at - endedAt).toBeLessThan(6_000);

    const metrics = voice.t.app.get(SwitchboardMetrics);
    for (const [dependency, engine] of [
      ['tts', 'openai'],
      ['llm', 'openai-compatible'],
    ]) {
      expect(
        await metricValue(metrics, 'switchboard_engine_fallbacks_total', {
          dependency,
          role: 'primary',
          engine,
        }),
      ).toBeGreaterThanOrEqual(1);
    }
    caller.close();
  });

  it('answers with the fallback model within the voice deadline when the model never sends a first token', async () => {
    speech.faults.clear();
    deepgram.transcripts = [HEARD];
    chat.respond = () => ({ kind: 'stall', pieces: [] });
    fallbackChat.reply({ kind: 'text', pieces: [REPLY] });
    const asked = { primary: chat.requests.length, fallback: fallbackChat.requests.length };

    const caller = await greetedCall();
    const { endedAt } = await caller.play(callerAudio('opening-hours'));
    await waitFor(() => caller.marks.some((mark) => mark.name.startsWith('reply-')), {
      timeoutMs: 20_000,
      what: 'the reply played',
    });
    expect(chat.requests.length).toBe(asked.primary + 1);
    const request = fallbackChat.requests[asked.fallback];
    expect(request.receivedAt - chat.requests[asked.primary].receivedAt).toBeLessThan(1_500);
    // The caller heard the fallback's answer seconds after they stopped, not after 10-15 s.
    const reply = caller.frames.filter((frame) => frame.at > endedAt);
    expect(reply[0].at - endedAt).toBeLessThan(6_000);
    caller.close();
  });
});
