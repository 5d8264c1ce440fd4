import type { EngineReadiness } from './speech-engines';

/**
 * A network engine can run when its key is set and its URL speaks a protocol it uses: `http(s)`
 * for request/response APIs, also `ws(s)` for streaming ones. Names variables, never values.
 */
export function networkReadiness(
  /** Of the variables: STT, TTS, STT_FALLBACK or TTS_FALLBACK. */
  prefix: string,
  settings: { provider: string; apiUrl: string; apiKey: string | undefined },
  protocols: readonly string[],
): EngineReadiness {
  if (!settings.apiKey) {
    return {
      ready: false,
      reason: `${prefix}_API_KEY is not set (${prefix}_PROVIDER=${settings.provider})`,
    };
  }
  if (!protocols.includes(new URL(settings.apiUrl).protocol)) {
    return {
      ready: false,
      reason: `${prefix}_API_URL must be ${protocols.join(' or ')} for ${settings.provider}`,
    };
  }
  return { ready: true };
}
