/** @jest-environment ./test/support/native-typed-arrays-environment.js */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import { heardPart } from '../../src/modules/voice/session/reply';
import { EspeakTextToSpeech } from '../../src/modules/voice/speech/offline/espeak-tts';
import { PocketsphinxSpeechToText } from '../../src/modules/voice/speech/offline/pocketsphinx-stt';
import type { TimedWord } from '../../src/modules/voice/speech/speech-engines';
import { ChatFake } from '../fakes/chat.fake';
import { loudness } from '../fakes/media-stream-caller';
import { callerAudio } from '../support/caller-utterances';
import { collect } from './speech/speech-config';
import {
  answerAndHearGreeting,
  placeVoiceCall,
  startVoiceApp,
  type VoiceApp,
} from '../support/voice-providers';
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
    const caller = await answerAndHearGreeting(twilio, call.id);
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

  it("keeps what the caller heard of a cut sentence to the word, by eSpeak NG's own timings", async () => {
    const [twilio] = voice.providers;
    const call = await placeVoiceCall(voice, twilio, {
      greeting: 'Hello Grace.',
      voice: null,
      language: 'en-US',
    });
    // eSpeak NG reads the number as "one million two hundred and thirty four thousand…": seven
    // characters that last 3.8 s of its 7.7, where a cut by characters and one by time part ways
    // (by characters, the number was heard from 2.0 s on).
    const sentence = 'The total is 1234567 dollars which you can pay in twelve easy monthly parts.';
    const asked = chat.requests.length;
    chat.reply({ kind: 'text', pieces: [sentence] });
    chat.reply({ kind: 'text', pieces: ['Of course.'] });
    const caller = await answerAndHearGreeting(twilio, call.id);
    const { endedAt } = await caller.play(callerAudio('call-back'), 0);
    await waitFor(() => caller.frames.filter((frame) => frame.at > endedAt).length >= 110, {
      timeoutMs: 60_000,
      what: '2.2 s of the reply',
    });
    await caller.play(callerAudio('no-thank-you'));
    const clearedAt = await waitFor(() => caller.clears.at(0) ?? false, { what: 'the clear' });
    const played = caller.frames.filter((f) => f.at > endedAt && f.at <= clearedAt).length;

    // The server's engine timed the words as this one does.
    const words: TimedWord[] = [];
    const spoken = await collect(
      new EspeakTextToSpeech('en-us').synthesize(sentence, {
        voice: '',
        language: 'en-US',
        signal: new AbortController().signal,
        onWords: (timed) => words.push(...timed),
      }),
    );
    const frames = Math.ceil(spoken.length / 160);
    // The clear came while the number was being read: after "is", before "dollars".
    expect(played * 20).toBeGreaterThan(words[2].endMs + 60);
    expect(played * 20).toBeLessThan(words[3].endMs - 60);
    const timed = heardPart({ text: sentence, mark: '', from: 0, to: frames, words }, played);
    const byLength = heardPart(
      { text: sentence, mark: '', from: 0, to: frames, words: [] },
      played,
    );
    expect(timed).toBe('The total is—');
    expect(byLength).not.toBe(timed);

    const next = await waitFor(() => chat.requests.length >= asked + 2 && chat.requests.at(-1)!, {
      timeoutMs: 60_000,
      what: 'the request after the barge-in',
    });
    const history = next.body.messages as Array<{ role: string; content: string }>;
    expect(history).toContainEqual({ role: 'assistant', content: timed });
    const log = await voice.t.app
      .get(PhoneLogsRepository)
      .findById(voice.admin.organizationId, call.log.id);
    expect(log!.turns.map((turn) => turn.text)).toContain(timed);
    caller.close();
  });

  it('tells a menu by its words: the first seconds decoded against the first-turn model', async () => {
    const [twilio] = voice.providers;
    const call = await placeVoiceCall(voice, twilio, {
      greeting: 'Hello Grace.',
      voice: null,
      language: 'en-US',
    });
    chat.reply({ kind: 'text', pieces: ['Representative.'] });
    const caller = await answerAndHearGreeting(twilio, call.id);
    // "Thank you for calling. Para español, oprima el nueve. For English, press one." The general
    // model hears no "press one" in it (the labelled set's bench: a voicemail by its length).
    await caller.play(await readFile(join(__dirname, '../fixtures/answers/ivr-5.ulaw')), 0);
    const log = await waitFor(
      async () => {
        const row = await voice.t.app
          .get(PhoneLogsRepository)
          .findById(voice.admin.organizationId, call.log.id);
        return row?.answerOutcome ? row : false;
      },
      { timeoutMs: 60_000, what: 'the verdict' },
    );
    expect(log.answerOutcome).toBe('ivr');
    caller.close();
  });
});
