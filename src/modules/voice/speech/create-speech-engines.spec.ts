import type { AppConfig } from '../../../config';
import { createSpeechEngines } from './create-speech-engines';

const speech = (overrides: {
  stt?: Partial<AppConfig['speech']['stt']>;
  tts?: Partial<AppConfig['speech']['tts']>;
  sttFallback?: AppConfig['speech']['sttFallback'];
}) =>
  ({
    engineCircuit: { failures: 3, coolDownMs: 30_000 },
    speech: {
      recognitionTimeoutMs: 3_000,
      firstAudioTimeoutMs: 3_000,
      sttFallback: overrides.sttFallback,
      stt: {
        provider: 'openai',
        apiUrl: 'https://api.openai.com/v1',
        apiKey: 'sk-1',
        model: 'whisper-1',
        ...overrides.stt,
      },
      tts: {
        provider: 'elevenlabs',
        apiUrl: 'wss://api.elevenlabs.io/v1',
        apiKey: 'xi-1',
        model: 'm',
        voice: 'v',
        ...overrides.tts,
      },
    },
  }) as AppConfig;

describe('createSpeechEngines readiness', () => {
  it('is ready when each network engine has its key and a URL it speaks', async () => {
    await expect(createSpeechEngines(speech({})).readiness()).resolves.toEqual({ ready: true });
  });

  it('names the missing key and never a value', async () => {
    const readiness = await createSpeechEngines(
      speech({ stt: { provider: 'deepgram', apiKey: undefined }, tts: { apiKey: undefined } }),
    ).readiness();
    expect(readiness).toEqual({
      ready: false,
      reason:
        'STT_API_KEY is not set (STT_PROVIDER=deepgram); TTS_API_KEY is not set (TTS_PROVIDER=elevenlabs)',
    });
  });

  it('refuses a WebSocket URL for a request/response API', async () => {
    const readiness = await createSpeechEngines(
      speech({ stt: { apiUrl: 'wss://speech.example/v1' } }),
    ).readiness();
    expect(readiness.reason).toBe('STT_API_URL must be http: or https: for openai');
    expect(readiness.reason).not.toContain('sk-1');
  });
});

describe('createSpeechEngines warnings', () => {
  it('names a fallback that cannot run by its own variables, and an engine that cannot be reached without its URL', async () => {
    // Nothing listens on port 1.
    const closed = 'http://127.0.0.1:1/v1';
    const engines = createSpeechEngines(
      speech({
        stt: { apiUrl: closed },
        tts: { provider: 'offline' },
        sttFallback: { provider: 'deepgram', apiUrl: closed, apiKey: undefined, model: 'm' },
      }),
    );
    const warnings = await engines.warnings!();
    expect(warnings).toEqual([
      'STT primary engine openai cannot be reached (ECONNREFUSED)',
      'STT fallback engine deepgram cannot run: STT_FALLBACK_API_KEY is not set (STT_FALLBACK_PROVIDER=deepgram)',
    ]);
    expect(warnings.join()).not.toContain('127.0.0.1');
    // A fallback that cannot run does not hold up the calls the primaries can serve.
    await expect(engines.readiness()).resolves.toEqual({ ready: true });
  });
});
