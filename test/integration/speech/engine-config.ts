import type { AppConfig, SpeechToTextConfig, TextToSpeechConfig } from '../../../src/config';
import { SwitchboardMetrics } from '../../../src/metrics/switchboard-metrics';

export type EngineConfig = Pick<AppConfig, 'speech' | 'engineCircuit'>;

/** Speech settings as loadConfig makes them, offline unless given, with short deadlines. */
export function engineConfig(
  overrides: {
    stt?: SpeechToTextConfig;
    tts?: TextToSpeechConfig;
    sttFallback?: SpeechToTextConfig;
    ttsFallback?: TextToSpeechConfig;
    recognitionTimeoutMs?: number;
    firstAudioTimeoutMs?: number;
    circuit?: Partial<AppConfig['engineCircuit']>;
  } = {},
): EngineConfig {
  return {
    speech: {
      stt: overrides.stt ?? { provider: 'offline', apiUrl: '', apiKey: undefined, model: 'm' },
      tts: overrides.tts ?? {
        provider: 'offline',
        apiUrl: '',
        apiKey: undefined,
        model: 'm',
        voice: 'en-us',
      },
      sttFallback: overrides.sttFallback,
      ttsFallback: overrides.ttsFallback,
      recognitionTimeoutMs: overrides.recognitionTimeoutMs ?? 3_000,
      firstAudioTimeoutMs: overrides.firstAudioTimeoutMs ?? 3_000,
    },
    engineCircuit: { failures: 3, coolDownMs: 30_000, ...overrides.circuit },
  };
}

/** The value of one sample of the /metrics exposition, or undefined when it is not there. */
export async function metricValue(
  metrics: SwitchboardMetrics,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const { body } = await metrics.exposition();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = body
    .split('\n')
    .find((row) => row.startsWith(`${name}{`) && wanted.every((label) => row.includes(label)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Feeds `ulaw` to a recognition stream in 20 ms frames, as a call does. */
export function writeFrames(stream: { write(ulaw: Buffer): void }, ulaw: Buffer): void {
  for (let at = 0; at < ulaw.length; at += 160) stream.write(ulaw.subarray(at, at + 160));
}

/** The time `work` took to settle, and how: its value or its error. */
export async function timed<T>(
  work: () => Promise<T>,
): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const value = await work();
    return { ms: performance.now() - started, value };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}
