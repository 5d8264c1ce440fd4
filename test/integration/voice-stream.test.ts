import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Database } from '../../src/database';
import { streamTokens } from '../../src/modules/voice/media/stream-tokens.schema';
import { PhoneLogsRepository } from '../../src/modules/call-records/phone-logs.repository';
import { CallSessions } from '../../src/modules/voice/session/call-sessions';
import type { SpeechEngines } from '../../src/modules/voice/speech/speech-engines';
import { MediaStreamCaller, plivoXmlStream } from '../fakes/media-stream-caller';
import { ulawTone } from '../fakes/ulaw-tone';
import { LogCapture } from '../support/log-capture';
import {
  placeVoiceCall,
  startVoiceApp,
  telnyxStreamingStart,
  VOICE_INTEGRATIONS,
  type VoiceApp,
} from '../support/voice-providers';
import { waitFor } from '../support/wait-for';

jest.setTimeout(60_000);

const GREETING = 'Hello Grace, this is Ada from Acme.';
/** 610 ms of a 440 Hz tone: 30 whole frames and a half one the session pads with silence. */
const TONE = ulawTone(440, 610);
const FRAMES = Math.ceil(TONE.length / 160);

/** The outside synthesis service, as the gateway sees it: a known tone in uneven chunks. */
function toneEngines(
  spoken: Array<{ text: string; voice: string; language: string }>,
): SpeechEngines {
  return {
    stt: {
      open: () => {
        throw new Error('recognition is not part of these tests');
      },
    },
    tts: {
      async *synthesize(text, { voice, language }) {
        spoken.push({ text, voice, language });
        for (let at = 0; at < TONE.length; at += 1000) {
          // Each chunk arrives on a later turn, as from a service.
          await Promise.resolve();
          yield TONE.subarray(at, at + 1000);
        }
      },
    },
    readiness: () => Promise.resolve({ ready: true }),
  };
}

describe('media stream: the agent speaks its greeting over the provider stream', () => {
  const logs = new LogCapture();
  const spoken: Array<{ text: string; voice: string; language: string }> = [];
  let voice: VoiceApp;

  beforeAll(async () => {
    voice = await startVoiceApp({
      speechEngines: toneEngines(spoken),
      logStream: logs,
      env: { LOG_LEVEL: 'info' },
    });
  });
  afterAll(() => voice?.close());

  for (const integration of VOICE_INTEGRATIONS) {
    describe(integration, () => {
      const provider = () => voice.providers.find((p) => p.integration === integration)!;
      const sessions = () => voice.t.app.get(CallSessions);

      /** Places and answers a call, checking the answer instructions this provider got. */
      const placeAndAnswer = async (
        agent: { voicemailMessage?: string } = {},
        answeredBy: 'human' | 'machine' = 'human',
      ) => {
        const call = await placeVoiceCall(voice, provider(), {
          greeting: GREETING,
          voice: null,
          language: 'en-US',
          ...agent,
        });
        const stream = await provider().answer(call.id, answeredBy);
        expect(stream.url).toBe(
          `ws://127.0.0.1:${voice.port}/api/telephony/${integration}/stream${integration === 'provider_three' ? `?token=${encodeURIComponent(stream.token)}` : ''}`,
        );
        expect(stream.token).toMatch(/^[0-9a-f]{64}$/);
        const { plivo, telnyx } = voice.fakes;
        if (integration === 'provider_one') {
          const { attributes } = plivoXmlStream(plivo.call(call.id).answerFetch!.responseBody);
          expect(attributes).toContain('bidirectional="true"');
          expect(attributes).toContain('keepCallAlive="true"');
          expect(attributes).toContain('contentType="audio/x-mulaw;rate=8000"');
          // Plivo takes only letters and digits in extraHeaders values.
          expect(attributes).toContain(`extraHeaders="token=${stream.token}"`);
          expect(stream.token).toMatch(/^[A-Za-z0-9]+$/);
        }
        if (integration === 'provider_three') {
          expect(telnyxStreamingStart(telnyx, call.id)).toMatchObject({
            stream_track: 'inbound_track',
            stream_bidirectional_mode: 'rtp',
            stream_bidirectional_codec: 'PCMU',
          });
          expect(telnyx.call(call.id).actions.map((action) => action.action)).not.toContain(
            'speak',
          );
        }
        return { call, stream };
      };

      it('speaks the greeting in frames paced at real time, marks its end, then hangs up', async () => {
        const { call, stream } = await placeAndAnswer();
        const caller = await MediaStreamCaller.connect(integration, stream.url);
        caller.start(stream.callId, stream.token);
        await waitFor(() => provider().hangupRequested(call.id), {
          timeoutMs: 10_000,
          what: 'the hang-up at the provider',
        });
        const hungUpAt = performance.now();
        // Then the service closes the stream and forgets the call.
        expect(await caller.closed).toBe(1000);
        await waitFor(() => sessions().size === 0, { what: 'the session to end' });

        expect(spoken.at(-1)).toEqual({ text: GREETING, voice: 'en-us', language: 'en-US' });
        const { frames, marks } = caller;
        expect(frames).toHaveLength(FRAMES);
        expect(frames.every((frame) => frame.audio.length === 160)).toBe(true);
        const audio = Buffer.concat(frames.map((frame) => frame.audio));
        expect(audio.subarray(0, TONE.length).equals(TONE)).toBe(true);
        expect([...audio.subarray(TONE.length)].every((byte) => byte === 0xff)).toBe(true);

        // The greeting starts within 1.5 s of the stream's start and plays at real time.
        expect(frames[0].at - caller.startedAt).toBeLessThan(1_500);
        const gaps = frames.slice(1).map((frame, i) => frame.at - frames[i].at);
        const sorted = [...gaps].sort((a, b) => a - b);
        const median = sorted[Math.floor(sorted.length / 2)];
        expect(median).toBeGreaterThan(15);
        expect(median).toBeLessThan(25);
        const span = frames.at(-1)!.at - frames[0].at;
        expect(span).toBeGreaterThan((FRAMES - 1) * 20 - 20);
        expect(span).toBeLessThan((FRAMES - 1) * 20 + 300);

        // One mark after the last frame; the hang-up only once it was played.
        expect(marks.map((mark) => mark.name)).toEqual(['greeting-end']);
        expect(marks[0].at).toBeGreaterThanOrEqual(frames.at(-1)!.at);
        expect(hungUpAt).toBeGreaterThanOrEqual(marks[0].at);

        // Each message in the provider's own shape.
        const first = caller.received.find(
          (message) => message.event !== 'mark' && message.event !== 'checkpoint',
        )!;
        if (integration === 'provider_two')
          expect(first).toMatchObject({ event: 'media', streamSid: caller.streamId });
        if (integration === 'provider_one')
          expect(first).toMatchObject({
            event: 'playAudio',
            streamId: caller.streamId,
            media: { contentType: 'audio/x-mulaw', sampleRate: 8000 },
          });
        if (integration === 'provider_three')
          expect(Object.keys(first).sort()).toEqual(['event', 'media']);
        expect(logs.text).not.toContain(stream.token);
      });

      it("sends nothing before the caller's first frame, then the greeting", async () => {
        const { call, stream } = await placeAndAnswer();
        const caller = await MediaStreamCaller.connect(integration, stream.url, {
          mediaAtStart: false,
        });
        caller.start(stream.callId, stream.token);
        await waitFor(
          () =>
            logs.lines.some(
              (line) => line.msg === 'Media stream opened' && line.call === call.log.id,
            ),
          { what: 'the stream to open' },
        );
        // Without the wait the greeting's first frames leave within ~100 ms of the opening.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(caller.frames).toHaveLength(0);
        const firstFrameAt = performance.now();
        caller.sendAudio(Buffer.alloc(160, 0xff));
        await waitFor(() => caller.frames.length > 0, { what: 'the greeting' });
        expect(caller.frames[0].at).toBeGreaterThanOrEqual(firstFrameAt);
        expect(caller.frames[0].at - firstFrameAt).toBeLessThan(1_000);
        caller.hangUp();
        await waitFor(() => sessions().size === 0, { what: 'the session to end' });
      });

      it('closes a forged, then a reused, token before any audio is processed', async () => {
        const { call, stream } = await placeAndAnswer();
        const forgedUrl = new URL(stream.url);
        if (forgedUrl.searchParams.has('token'))
          forgedUrl.searchParams.set('token', `${stream.token}x`);
        const forged = await MediaStreamCaller.connect(integration, forgedUrl.toString());
        forged.start(stream.callId, `${stream.token}x`);
        forged.sendAudio(TONE.subarray(0, 160), 1);
        expect(await forged.closed).toBe(1008);
        expect(forged.frames).toHaveLength(0);

        const valid = await MediaStreamCaller.connect(integration, stream.url);
        valid.start(stream.callId, stream.token);
        await waitFor(() => valid.frames.length > 0, { what: 'the greeting' });
        valid.send({ event: 'stop' });
        valid.close();
        await valid.closed;
        // The caller's stop ends the session mid-greeting: nothing more is sent, nothing is kept.
        await waitFor(() => sessions().size === 0, { what: 'the session to end' });
        const heard = valid.frames.length;
        expect(heard).toBeLessThan(FRAMES);

        const reused = await MediaStreamCaller.connect(integration, stream.url);
        reused.start(stream.callId, stream.token);
        expect(await reused.closed).toBe(1008);
        expect(reused.frames).toHaveLength(0);
        expect(provider().hangupRequested(call.id)).toBe(false);
        expect(valid.frames).toHaveLength(heard);

        const refusals = logs.lines.filter(
          (line) => line.msg === 'Media stream refused' && line.integration === integration,
        );
        expect(refusals.map((line) => line.reason)).toEqual(['bad token', 'bad token']);
        expect(logs.text).not.toContain(stream.token);
      });

      it('refuses a valid token on the stream of another call', async () => {
        const { call, stream } = await placeAndAnswer();
        // Plivo's stream names the live call (CallUUID): the request_uuid it was placed by
        // names no stream of Plivo's.
        const otherId = integration === 'provider_one' ? call.id : randomUUID();
        expect(otherId).not.toBe(stream.callId);
        const before = logs.lines.filter((line) => line.reason === 'call mismatch').length;
        const other = await MediaStreamCaller.connect(integration, stream.url);
        other.start(otherId, stream.token);
        expect(await other.closed).toBe(1008);
        expect(other.frames).toHaveLength(0);
        expect(logs.lines.filter((line) => line.reason === 'call mismatch')).toHaveLength(
          before + 1,
        );
        expect(provider().hangupRequested(call.id)).toBe(false);
      });

      it('leaves the voicemail message only after the machine greeting ends in its beep, then hangs up', async () => {
        const VOICEMAIL = 'Sorry we missed you, Grace. Please call Acme back.';
        const { call, stream } = await placeAndAnswer({ voicemailMessage: VOICEMAIL }, 'machine');
        const caller = await MediaStreamCaller.connect(integration, stream.url);
        caller.start(stream.callId, stream.token);
        await waitFor(
          () =>
            logs.lines.some(
              (line) => line.msg === 'Media stream opened' && line.call === call.log.id,
            ),
          { what: 'the session to open' },
        );

        // The machine's greeting (1 s of a 300 Hz tone), its 1 kHz beep (300 ms), then silence,
        // in real time as a provider streams it.
        const { endedAt: beepEndedAt } = await caller.play(
          Buffer.concat([ulawTone(300, 1_000), ulawTone(1_000, 300)]),
          0,
        );
        const silence = Buffer.alloc(160, 0xff);
        for (let i = 0; i < 500 && !provider().hangupRequested(call.id); i++)
          await caller.play(silence, 0);
        await waitFor(() => provider().hangupRequested(call.id), {
          timeoutMs: 10_000,
          what: 'the hang-up at the provider',
        });
        const hungUpAt = performance.now();
        expect(await caller.closed).toBe(1000);

        expect(spoken.at(-1)).toEqual({ text: VOICEMAIL, voice: 'en-us', language: 'en-US' });
        expect(caller.frames).toHaveLength(FRAMES);
        expect(caller.frames[0].at).toBeGreaterThanOrEqual(beepEndedAt);
        expect(caller.marks.map((mark) => mark.name)).toEqual(['voicemail-end']);
        expect(hungUpAt).toBeGreaterThanOrEqual(caller.marks[0].at);
        expect(
          logs.lines.find(
            (line) =>
              line.msg === 'Voicemail message after the beep wait' && line.call === call.log.id,
          ),
        ).toMatchObject({ outcome: 'beep' });

        // The provider's final callback after the machine verdict makes the attempt voicemail.
        await provider().complete(call.id);
        const log = await voice.t.app
          .get(PhoneLogsRepository)
          .findById(voice.admin.organizationId, call.log.id);
        expect(log).toMatchObject({ callStatus: 'voicemail', answeredBy: 'machine' });
      });
    });
  }

  it('closes a stream that sends malformed JSON, and refuses other upgrade paths', async () => {
    const { port, t } = voice;
    const url = `ws://127.0.0.1:${port}/api/telephony/provider_two/stream`;
    const caller = await MediaStreamCaller.connect('provider_two', url);
    caller.sendRaw('{"event": "start",');
    expect(await caller.closed).toBe(1007);

    const oversized = await MediaStreamCaller.connect('provider_two', url);
    oversized.sendRaw(JSON.stringify({ event: 'media', media: { payload: 'A'.repeat(70_000) } }));
    expect(await oversized.closed).toBe(1009);

    for (const path of ['/api/telephony/provider_x/stream', '/api/telephony/provider_two/other']) {
      await expect(
        MediaStreamCaller.connect('provider_two', `ws://127.0.0.1:${port}${path}`),
      ).rejects.toThrow(/404/);
    }
    // The service still answers.
    await t.http.get('/health/live').expect(200);
  });
});

describe.each([
  { case: 'VOICE_RUNTIME=off', runtime: 'off', ready: true },
  { case: 'speech engines not ready', runtime: 'on', ready: false },
])('answer instructions when the voice runtime cannot run ($case)', ({ runtime, ready }) => {
  let voice: VoiceApp;

  beforeAll(async () => {
    const engines = toneEngines([]);
    voice = await startVoiceApp({
      speechEngines: { ...engines, readiness: () => Promise.resolve({ ready }) },
      env: { VOICE_RUNTIME: runtime },
    });
  });
  afterAll(() => voice?.close());

  const streamTokenCount = async () =>
    (await voice.t.app.get(Database).db.select().from(streamTokens)).length;

  it('says the greeting with the provider speech verb and hangs up, issuing no stream token', async () => {
    const { twilio, telnyx } = voice.fakes;
    const call = (integration: 'provider_two' | 'provider_three') =>
      placeVoiceCall(
        voice,
        voice.providers.find((provider) => provider.integration === integration)!,
        { greeting: GREETING },
      );
    const viaTwilio = await call('provider_two');
    await twilio.advanceCall(viaTwilio.id, 'in-progress');
    const twiml = twilio.call(viaTwilio.id).answerFetch!.responseBody;
    expect(twiml).toContain(`<Say language="en-US">${GREETING}</Say><Hangup/>`);
    expect(twiml).not.toContain('<Stream');

    const viaTelnyx = await call('provider_three');
    await telnyx.advanceCall(viaTelnyx.id, 'call.answered');
    const actions = await waitFor(
      () => telnyx.call(viaTelnyx.id).actions.length > 0 && telnyx.call(viaTelnyx.id).actions,
      { what: 'a Call Control command' },
    );
    expect(actions.map((action) => action.action)).toEqual(['speak']);
    expect(actions[0].body).toMatchObject({ payload: GREETING });
    expect(await streamTokenCount()).toBe(0);
  });
});
