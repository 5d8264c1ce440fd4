import { DependencyFailure } from '../../../src/common/dependency-failure';
import { SwitchboardMetrics } from '../../../src/metrics/switchboard-metrics';
import { createSpeechEngines } from '../../../src/modules/voice/speech/create-speech-engines';
import type { SpeechEngines } from '../../../src/modules/voice/speech/speech-engines';
import { ElevenLabsFake, OpenAiSpeechFake } from '../../fakes/speech';
import { engineConfig, metricValue, timed } from './engine-config';
import { collect, ttsSettings } from './speech-config';

jest.setTimeout(60_000);

const KEY = 'sk-tts-key';
const XI_KEY = 'xi-tts-key';
/** What the ElevenLabs fake speaks: byte i is i % 256. */
const elevenLabsAudio = (bytes: number) =>
  Buffer.from(Array.from({ length: bytes }, (_, i) => i % 256));

// Speech synthesis of a live call's sentences when its services fail: a retry, the fallback
// (eSpeak NG counts), a sentence cut mid-way spoken again by the fallback, the circuit breaker,
// and one DependencyFailure('tts') within TTS_FIRST_AUDIO_TIMEOUT_MS.
describe('speech synthesis that retries and falls back', () => {
  let openai: OpenAiSpeechFake;
  let elevenlabs: ElevenLabsFake;
  let urls: { openai: string; elevenlabs: string };
  let metrics: SwitchboardMetrics;
  const opened: SpeechEngines[] = [];

  beforeEach(async () => {
    openai = new OpenAiSpeechFake(KEY);
    elevenlabs = new ElevenLabsFake(XI_KEY);
    urls = { openai: await openai.listen(), elevenlabs: await elevenlabs.listen() };
    metrics = new SwitchboardMetrics();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).flatMap((engines) => engines.close?.() ?? []));
    await Promise.all([openai.close(), elevenlabs.close()]);
  });

  const openaiTts = () =>
    ttsSettings('openai', { apiUrl: urls.openai, apiKey: KEY, model: 'tts-1', voice: 'alloy' });
  const elevenLabsTts = () =>
    ttsSettings('elevenlabs', { apiUrl: urls.elevenlabs, apiKey: XI_KEY, voice: 'Rachel1' });
  const offlineTts = () => ttsSettings('offline', { voice: 'en-us' });

  function engines(options: Parameters<typeof engineConfig>[0]): SpeechEngines {
    const created = createSpeechEngines(engineConfig(options), metrics.engineEvents);
    opened.push(created);
    return created;
  }

  const speak = (engine: SpeechEngines, text = 'We open at nine.', voice = '') =>
    timed(() =>
      collect(
        engine.tts.synthesize(text, {
          voice,
          language: 'en-US',
          signal: new AbortController().signal,
        }),
      ),
    );

  it('retries a 503 and speaks the sentence with the primary', async () => {
    openai.faults.next({ kind: 'status', status: 503 });
    openai.speechMs = 500;
    const { value } = await speak(engines({ tts: openaiTts() }));
    expect(Math.abs(value!.length - 4000)).toBeLessThanOrEqual(2);
    expect(openai.speeches).toHaveLength(2);
  });

  it('reconnects an ElevenLabs socket that failed before any audio, within the sentence', async () => {
    elevenlabs.faults.next({ kind: 'cut', afterBytes: 0 });
    const { value } = await speak(engines({ tts: elevenLabsTts() }));
    expect(value).toEqual(elevenLabsAudio(4000));
    expect(elevenlabs.streams).toHaveLength(2);
  });

  it('speaks with the offline fallback, in its own voice, when ElevenLabs is down', async () => {
    elevenlabs.faults.always({ kind: 'status', status: 503 });
    const { value, error } = await speak(
      engines({ tts: elevenLabsTts(), ttsFallback: offlineTts() }),
      'We open at nine.',
      'pNInz6obpgDQGcFmaJgB', // the agent's ElevenLabs voice: no eSpeak NG voice
    );
    expect(error).toBeUndefined();
    // eSpeak NG's speech: over half a second at 8000 bytes a second.
    expect(value!.length).toBeGreaterThan(4000);
    expect(
      await metricValue(metrics, 'switchboard_engine_fallbacks_total', {
        dependency: 'tts',
        role: 'primary',
        engine: 'elevenlabs',
      }),
    ).toBe(1);
  });

  it('has the fallback speak the whole sentence again when the primary is cut mid-sentence', async () => {
    elevenlabs.chunkBytes = 800;
    elevenlabs.faults.next({ kind: 'cut', afterBytes: 1600 });
    openai.speechMs = 500;
    const { value } = await speak(engines({ tts: elevenLabsTts(), ttsFallback: openaiTts() }));
    // The 1,600 bytes the caller already heard, then all of the fallback's sentence.
    expect(value!.subarray(0, 1600)).toEqual(elevenLabsAudio(1600));
    expect(Math.abs(value!.length - 1600 - 4000)).toBeLessThanOrEqual(2);
    expect(openai.speeches[0].body).toMatchObject({ input: 'We open at nine.', voice: 'alloy' });
  });

  it('speaks with the fallback within the deadline when the primary sends no audio', async () => {
    openai.faults.always({ kind: 'hang' });
    elevenlabs.audioBytes = 1600;
    const { value, ms } = await speak(
      engines({ tts: openaiTts(), ttsFallback: elevenLabsTts(), firstAudioTimeoutMs: 1_000 }),
    );
    expect(value).toEqual(elevenLabsAudio(1600));
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(1_000);
  });

  it('bounds a sentence whose audio stalls half-way: the fallback speaks it', async () => {
    // The OpenAI fake sends its first 20 ms of audio, then nothing for 5 s: a stalled stream.
    openai.speechMs = 2_000;
    openai.speechPaceMs = 5_000;
    elevenlabs.audioBytes = 800;
    const tts = engines({
      tts: openaiTts(),
      ttsFallback: elevenLabsTts(),
      firstAudioTimeoutMs: 600,
    });
    const { value, ms } = await speak(tts);
    expect(value!.length).toBeGreaterThan(800);
    expect(value!.subarray(value!.length - 800)).toEqual(elevenLabsAudio(800));
    expect(ms).toBeLessThan(600 + 600);
  });

  it('throws one DependencyFailure("tts") within the deadline when both engines are down', async () => {
    openai.faults.always({ kind: 'hang' });
    elevenlabs.faults.always({ kind: 'hang' });
    const { error, ms } = await speak(
      engines({ tts: elevenLabsTts(), ttsFallback: openaiTts(), firstAudioTimeoutMs: 1_000 }),
    );
    expect(error).toBeInstanceOf(DependencyFailure);
    expect(error).toMatchObject({ dependency: 'tts' });
    expect((error as Error).message).toMatch(
      /^speech synthesis failed: elevenlabs \(primary\): no answer within \d+ ms; openai \(fallback\): no answer within \d+ ms$/,
    );
    expect(ms).toBeLessThan(1_000 + 250);
  });

  it('skips the primary while its circuit is open, then probes it after the cool-down', async () => {
    elevenlabs.faults.always({ kind: 'status', status: 500 });
    openai.speechMs = 100;
    const tts = engines({
      tts: elevenLabsTts(),
      ttsFallback: openaiTts(),
      circuit: { failures: 1, coolDownMs: 300 },
    });
    await speak(tts);
    const refused = elevenlabs.faults.met;
    expect(refused).toBe(2); // the try and its retry
    await speak(tts);
    expect(elevenlabs.faults.met).toBe(refused);
    expect(openai.speeches).toHaveLength(2);
    elevenlabs.faults.clear();
    const started = performance.now();
    for (;;) {
      const { value } = await speak(tts);
      if (value!.equals(elevenLabsAudio(4000))) break;
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    expect(
      await metricValue(metrics, 'switchboard_engine_state', {
        dependency: 'tts',
        role: 'primary',
        engine: 'elevenlabs',
        state: 'ok',
      }),
    ).toBe(1);
  });
});
