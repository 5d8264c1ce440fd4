import type { AppConfig, SpeechToTextConfig, TextToSpeechConfig } from '../../../config';
import { EngineCircuit } from '../../../common/failover/engine-circuit';
import {
  type EngineEvents,
  type EngineRef,
  NO_ENGINE_EVENTS,
} from '../../../common/failover/engine-events';
import { unreachableReason } from '../../../common/failover/reachability';
import { DeepgramSpeechToText } from './deepgram/deepgram-stt';
import { ElevenLabsTextToSpeech } from './elevenlabs/elevenlabs-tts';
import type { EngineSlot } from './engine-slot';
import { FailoverSpeechToText } from './failover-speech-to-text';
import { FailoverTextToSpeech } from './failover-text-to-speech';
import { networkReadiness } from './network-readiness';
import { EspeakTextToSpeech } from './offline/espeak-tts';
import { espeakReadiness, pocketsphinxReadiness } from './offline/offline-readiness';
import { PocketsphinxSpeechToText } from './offline/pocketsphinx-stt';
import { OpenAiSpeechToText } from './openai/openai-stt';
import { OpenAiTextToSpeech } from './openai/openai-tts';
import type { EngineReadiness, SpeechEngines, SpeechToText, TextToSpeech } from './speech-engines';

const HTTP = ['http:', 'https:'];
const HTTP_OR_WS = [...HTTP, 'ws:', 'wss:'];

interface Engine<T> {
  engine: T;
  readiness: () => Promise<EngineReadiness>;
  close?: () => Promise<void>;
  /** A network engine's URL, checked for reachability at start. */
  apiUrl?: string;
}

type Configured<T> = Engine<T> & { slot: EngineSlot<T> };

/**
 * The engines of STT_PROVIDER and TTS_PROVIDER (contract §7), each behind its failover: one retry
 * within the turn, then STT_FALLBACK_* / TTS_FALLBACK_* when configured, circuit breakers per
 * engine, and one DependencyFailure once all are spent.
 */
export function createSpeechEngines(
  config: Pick<AppConfig, 'speech' | 'engineCircuit'>,
  events: EngineEvents = NO_ENGINE_EVENTS,
): SpeechEngines {
  const { speech, engineCircuit } = config;
  const chain = <C extends { provider: string }, T>(
    dependency: 'stt' | 'tts',
    primary: C,
    fallback: C | undefined,
    make: (settings: C, prefix: string) => Engine<T>,
  ): Configured<T>[] =>
    [primary, ...(fallback ? [fallback] : [])].map((settings, index) => {
      const role = index === 0 ? 'primary' : 'fallback';
      const ref: EngineRef = { dependency, role, engine: settings.provider };
      const prefix = `${dependency.toUpperCase()}${index === 0 ? '' : '_FALLBACK'}`;
      const engine = make(settings, prefix);
      const circuit = new EngineCircuit(engineCircuit, (state) => events.state(ref, state));
      events.state(ref, 'ok');
      return { ...engine, slot: { ref, engine: engine.engine, circuit } };
    });
  const stts = chain('stt', speech.stt, speech.sttFallback, speechToText);
  const ttss = chain('tts', speech.tts, speech.ttsFallback, textToSpeech);
  const all = [...stts, ...ttss];
  let checked: Promise<EngineReadiness> | undefined;
  return {
    stt: new FailoverSpeechToText(
      stts.map((each) => each.slot),
      speech.recognitionTimeoutMs,
      events,
    ),
    tts: new FailoverTextToSpeech(
      ttss.map((each) => each.slot),
      speech.firstAudioTimeoutMs,
      events,
    ),
    // The primaries decide whether calls can be connected; a fallback only helps.
    readiness: () => (checked ??= combine([stts[0].readiness(), ttss[0].readiness()])),
    warnings: async () => {
      const found = await Promise.all(
        all.map(async ({ slot: { ref, circuit }, readiness, apiUrl }) => {
          const name = `${ref.dependency.toUpperCase()} ${ref.role} engine ${ref.engine}`;
          if (ref.role === 'fallback') {
            const ready = await readiness();
            if (!ready.ready) {
              circuit.unreachable();
              return `${name} cannot run: ${ready.reason ?? 'not ready'}`;
            }
          }
          const unreachable = apiUrl === undefined ? undefined : await unreachableReason(apiUrl);
          if (unreachable === undefined) return undefined;
          circuit.unreachable();
          return `${name} cannot be reached (${unreachable})`;
        }),
      );
      return found.filter((warning) => warning !== undefined);
    },
    close: async () => {
      await Promise.all(all.flatMap((each) => (each.close ? [each.close()] : [])));
    },
  };
}

/**
 * STT_PROVIDER's engine on its own, without a live call's turn deadline, retry and circuit
 * breakers: for recorded audio heard at its own pace (the customers' voice notes of messaging),
 * whose long notes must neither miss a call's deadline nor open a call's circuit. `close` stops
 * what it runs (the offline recogniser's processes).
 */
export function createSpeechToText(config: Pick<AppConfig, 'speech'>): {
  engine: SpeechToText;
  close?: () => Promise<void>;
} {
  const { engine, close } = speechToText(config.speech.stt, 'STT');
  return { engine, close };
}

function speechToText(settings: SpeechToTextConfig, prefix: string): Engine<SpeechToText> {
  switch (settings.provider) {
    case 'offline': {
      const engine = new PocketsphinxSpeechToText();
      return { engine, readiness: pocketsphinxReadiness, close: () => engine.close() };
    }
    case 'openai':
      return {
        engine: new OpenAiSpeechToText(settings),
        readiness: () => Promise.resolve(networkReadiness(prefix, settings, HTTP)),
        apiUrl: settings.apiUrl,
      };
    case 'deepgram':
      return {
        engine: new DeepgramSpeechToText(settings),
        readiness: () => Promise.resolve(networkReadiness(prefix, settings, HTTP_OR_WS)),
        apiUrl: settings.apiUrl,
      };
  }
}

function textToSpeech(settings: TextToSpeechConfig, prefix: string): Engine<TextToSpeech> {
  switch (settings.provider) {
    case 'offline':
      return { engine: new EspeakTextToSpeech(settings.voice), readiness: espeakReadiness };
    case 'openai':
      return {
        engine: new OpenAiTextToSpeech(settings),
        readiness: () => Promise.resolve(networkReadiness(prefix, settings, HTTP)),
        apiUrl: settings.apiUrl,
      };
    case 'elevenlabs':
      return {
        engine: new ElevenLabsTextToSpeech(settings),
        readiness: () => Promise.resolve(networkReadiness(prefix, settings, HTTP_OR_WS)),
        apiUrl: settings.apiUrl,
      };
  }
}

async function combine(checks: Promise<EngineReadiness>[]): Promise<EngineReadiness> {
  const results = await Promise.all(checks);
  const reasons = results.flatMap((result) => (result.ready ? [] : [result.reason ?? '']));
  return reasons.length === 0
    ? { ready: true }
    : { ready: false, reason: reasons.filter(Boolean).join('; ') };
}
