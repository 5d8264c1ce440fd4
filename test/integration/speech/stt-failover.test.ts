import { DependencyFailure } from '../../../src/common/dependency-failure';
import { SwitchboardMetrics } from '../../../src/metrics/switchboard-metrics';
import { createSpeechEngines } from '../../../src/modules/voice/speech/create-speech-engines';
import type { SpeechEngines } from '../../../src/modules/voice/speech/speech-engines';
import { DeepgramFake, OpenAiSpeechFake } from '../../fakes/speech';
import { callerAudio } from '../../support/caller-utterances';
import { waitFor } from '../../support/wait-for';
import { engineConfig, metricValue, timed, writeFrames } from './engine-config';
import { frames, sttSettings } from './speech-config';

jest.setTimeout(60_000);

const KEY = 'sk-stt-key';
const DG_KEY = 'dg-stt-key';
const hum = Buffer.concat(frames(50));

// Speech recognition of a live call's turns when its services fail: a retry within the turn,
// the fallback engine (the offline one counts: PocketSphinx runs here), a Deepgram socket that
// reconnects, the circuit breaker, and one DependencyFailure('stt') within STT_TURN_TIMEOUT_MS.
describe('speech recognition that retries, reconnects and falls back', () => {
  let openai: OpenAiSpeechFake;
  let second: OpenAiSpeechFake;
  let deepgram: DeepgramFake;
  let urls: { openai: string; second: string; deepgram: string };
  let metrics: SwitchboardMetrics;
  const opened: SpeechEngines[] = [];

  beforeEach(async () => {
    openai = new OpenAiSpeechFake(KEY);
    second = new OpenAiSpeechFake(KEY);
    deepgram = new DeepgramFake(DG_KEY);
    urls = {
      openai: await openai.listen(),
      second: await second.listen(),
      deepgram: await deepgram.listen(),
    };
    metrics = new SwitchboardMetrics();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).flatMap((engines) => engines.close?.() ?? []));
    await Promise.all([openai.close(), second.close(), deepgram.close()]);
  });

  const openaiStt = (apiUrl = urls.openai) =>
    sttSettings('openai', { apiUrl, apiKey: KEY, model: 'whisper-1' });
  const deepgramStt = () => sttSettings('deepgram', { apiUrl: urls.deepgram, apiKey: DG_KEY });
  const offlineStt = () => sttSettings('offline', {});

  function engines(options: Parameters<typeof engineConfig>[0]): SpeechEngines {
    const created = createSpeechEngines(engineConfig(options), metrics.engineEvents);
    opened.push(created);
    return created;
  }

  it('retries a 503 within the turn and serves the turn from the primary', async () => {
    openai.faults.next({ kind: 'status', status: 503 });
    openai.transcripts = ['yes please'];
    const stream = engines({ stt: openaiStt() }).stt.open({ language: 'en-US' });
    writeFrames(stream, hum);
    await expect(stream.finish()).resolves.toBe('yes please');
    expect(openai.transcriptions).toHaveLength(2);
    // The retry heard the same turn.
    expect(openai.transcriptions[1].file).toEqual(openai.transcriptions[0].file);
    const labels = { dependency: 'stt', role: 'primary', engine: 'openai' };
    expect(await metricValue(metrics, 'switchboard_engine_retries_total', labels)).toBe(1);
    expect(await metricValue(metrics, 'switchboard_engine_state', { ...labels, state: 'ok' })).toBe(
      1,
    );
  });

  it("honours a 429's short Retry-After before the retry", async () => {
    openai.faults.next({ kind: 'status', status: 429, retryAfterSeconds: 1 });
    openai.transcripts = ['no thank you'];
    const stream = engines({ stt: openaiStt(), recognitionTimeoutMs: 4_000 }).stt.open({
      language: 'en-US',
    });
    writeFrames(stream, hum);
    const { value, ms } = await timed(() => stream.finish());
    expect(value).toBe('no thank you');
    expect(openai.transcriptions).toHaveLength(2);
    expect(
      openai.transcriptions[1].receivedAt - openai.transcriptions[0].receivedAt,
    ).toBeGreaterThan(950);
    expect(ms).toBeLessThan(4_000);
  });

  it('recognises the turn with the offline fallback when the primary is down', async () => {
    openai.faults.always({ kind: 'status', status: 500 });
    // PocketSphinx loads its model on the first call (generous on a busy machine).
    const stt = engines({
      stt: openaiStt(),
      sttFallback: offlineStt(),
      recognitionTimeoutMs: 8_000,
    }).stt;
    const stream = stt.open({ language: 'en-US' });
    writeFrames(stream, callerAudio('hello-world'));
    await expect(stream.finish()).resolves.toBe('hello world');
    expect(openai.transcriptions.length).toBeGreaterThanOrEqual(1);
    expect(
      await metricValue(metrics, 'switchboard_engine_fallbacks_total', {
        dependency: 'stt',
        role: 'primary',
        engine: 'openai',
      }),
    ).toBe(1);
  });

  it('serves the turn from the fallback within the deadline when the primary never answers', async () => {
    openai.faults.always({ kind: 'hang' });
    second.transcripts = ['what are your opening hours'];
    const stream = engines({
      stt: openaiStt(),
      sttFallback: openaiStt(urls.second),
      recognitionTimeoutMs: 2_000,
    }).stt.open({ language: 'en-US' });
    writeFrames(stream, hum);
    const { value, ms } = await timed(() => stream.finish());
    expect(value).toBe('what are your opening hours');
    // The primary had half of the 2 s; the fallback answered at once after it.
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2_000);
  });

  it('throws one DependencyFailure("stt") within the deadline when the fallback is down too', async () => {
    openai.faults.always({ kind: 'hang' });
    deepgram.faults.always({ kind: 'status', status: 503 });
    const stream = engines({
      stt: openaiStt(),
      sttFallback: deepgramStt(),
      recognitionTimeoutMs: 1_500,
    }).stt.open({ language: 'en-US' });
    writeFrames(stream, hum);
    const { error, ms } = await timed(() => stream.finish());
    expect(error).toBeInstanceOf(DependencyFailure);
    expect(error).toMatchObject({ dependency: 'stt' });
    expect((error as Error).message).toMatch(
      /^speech recognition failed: openai \(primary\): .*; deepgram \(fallback\): /,
    );
    expect((error as Error).message).not.toContain(KEY);
    expect(ms).toBeLessThan(1_500 + 250);
    expect(
      await metricValue(metrics, 'switchboard_engine_exhausted_total', { dependency: 'stt' }),
    ).toBe(1);
  });

  it('without a fallback, a refused key fails the turn at once', async () => {
    const stt = engines({
      stt: sttSettings('openai', { apiUrl: urls.openai, apiKey: 'sk-wrong' }),
    });
    const stream = stt.stt.open({ language: 'en-US' });
    writeFrames(stream, hum);
    const { error, ms } = await timed(() => stream.finish());
    expect(error).toBeInstanceOf(DependencyFailure);
    expect((error as Error).message).toBe(
      'speech recognition failed: openai (primary): OpenAI-compatible transcription refused the API key (HTTP 401)',
    );
    // Not retried: a refused key stays refused.
    const labels = { dependency: 'stt', role: 'primary', engine: 'openai' };
    expect(await metricValue(metrics, 'switchboard_engine_failures_total', labels)).toBe(1);
    expect((await metricValue(metrics, 'switchboard_engine_retries_total', labels)) ?? 0).toBe(0);
    expect(ms).toBeLessThan(500);
  });

  it('hears the caller again after the Deepgram socket is cut mid-utterance, the utterance whole', async () => {
    // The first socket dies after 30 frames of the first turn (no close frame).
    deepgram.faults.next({ kind: 'cut', afterBytes: 30 * 160 });
    deepgram.transcripts = ['what are your opening hours', 'yes please'];
    const stream = engines({ stt: deepgramStt() }).stt.open({ language: 'en-US' });
    writeFrames(stream, hum);
    await expect(stream.finish()).resolves.toBe('what are your opening hours');
    expect(deepgram.streams).toHaveLength(2);
    // The new socket heard the whole turn, the part the old one had heard included.
    expect(deepgram.streams[1].audioBytes).toBe(hum.length);
    writeFrames(stream, hum);
    await expect(stream.finish()).resolves.toBe('yes please');
    expect(deepgram.streams).toHaveLength(2);
    stream.close();
  });

  it('hears later turns after Deepgram closes the socket between turns', async () => {
    deepgram.faults.next({ kind: 'close', afterBytes: 20 * 160, code: 1011 });
    deepgram.transcripts = ['yes please'];
    const stream = engines({ stt: deepgramStt() }).stt.open({ language: 'en-US' });
    // Background noise after the greeting: the service closes the socket (an outage on its side).
    writeFrames(stream, hum.subarray(0, 25 * 160));
    await waitFor(() => deepgram.streams[0]?.closed, { what: 'Deepgram to close the socket' });
    stream.reset();
    await waitFor(() => deepgram.streams.length === 2, { what: 'the stream to reconnect' });
    writeFrames(stream, hum);
    await expect(stream.finish()).resolves.toBe('yes please');
    expect(deepgram.streams[0].closed).toBe(true);
    expect(deepgram.streams[1].controls).toEqual(['Finalize']);
    stream.close();
  });

  it('recognises the turn with the fallback when Deepgram stops answering, and later turns again on Deepgram', async () => {
    deepgram.faults.next({ kind: 'hang' });
    deepgram.transcripts = ['yes please'];
    openai.transcripts = ['what are your opening hours'];
    const stream = engines({
      stt: deepgramStt(),
      sttFallback: openaiStt(),
      recognitionTimeoutMs: 1_500,
    }).stt.open({ language: 'en-US' });
    writeFrames(stream, hum);
    const { value, ms } = await timed(() => stream.finish());
    expect(value).toBe('what are your opening hours');
    expect(ms).toBeLessThan(1_500);
    expect(openai.transcriptions[0].file.length).toBe(44 + hum.length * 2);
    // The stuck socket was replaced: the next turn is Deepgram's again.
    writeFrames(stream, hum);
    await expect(stream.finish()).resolves.toBe('yes please');
    expect(openai.transcriptions).toHaveLength(1);
    stream.close();
  });

  it('opens the circuit of a failing primary, skips it, then closes it once a probe succeeds', async () => {
    openai.faults.always({ kind: 'status', status: 401 });
    second.defaultTranscript = 'from the fallback';
    const stt = engines({
      stt: openaiStt(),
      sttFallback: openaiStt(urls.second),
      circuit: { failures: 2, coolDownMs: 400 },
    }).stt;
    const turn = async () => {
      const stream = stt.open({ language: 'en-US' });
      writeFrames(stream, hum);
      try {
        return await stream.finish();
      } finally {
        stream.close();
      }
    };
    const state = async (value: string) =>
      metricValue(metrics, 'switchboard_engine_state', {
        dependency: 'stt',
        role: 'primary',
        engine: 'openai',
        state: value,
      });
    await expect(turn()).resolves.toBe('from the fallback');
    expect(await state('failing')).toBe(1);
    await expect(turn()).resolves.toBe('from the fallback');
    expect(await state('open')).toBe(1);
    const openedAt = performance.now();
    expect(openai.transcriptions).toHaveLength(2);
    // Open: the turn goes straight to the fallback, the primary is not asked.
    await expect(turn()).resolves.toBe('from the fallback');
    expect(openai.transcriptions).toHaveLength(2);
    // The primary is back; after the cool-down one turn probes it and closes the circuit.
    openai.faults.clear();
    openai.defaultTranscript = 'from the primary';
    await waitFor(async () => (await turn()) === 'from the primary', {
      what: 'a turn to probe the primary',
    });
    expect(performance.now() - openedAt).toBeGreaterThan(350);
    expect(await state('ok')).toBe(1);
    expect(openai.transcriptions).toHaveLength(3);
  });
});
