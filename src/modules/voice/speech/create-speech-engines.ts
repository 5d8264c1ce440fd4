import type { AppConfig } from '../../../config';
import { DeepgramSpeechToText } from './deepgram/deepgram-stt';
import { ElevenLabsTextToSpeech } from './elevenlabs/elevenlabs-tts';
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
}

/** The engines of STT_PROVIDER and TTS_PROVIDER (contract §7). */
export function createSpeechEngines(config: AppConfig): SpeechEngines {
  const stt = speechToText(config.speech.stt);
  const tts = textToSpeech(config.speech.tts);
  let checked: Promise<EngineReadiness> | undefined;
  return {
    stt: stt.engine,
    tts: tts.engine,
    readiness: () => (checked ??= combine([stt.readiness(), tts.readiness()])),
    close: async () => {
      await stt.close?.();
    },
  };
}

function speechToText(settings: AppConfig['speech']['stt']): Engine<SpeechToText> {
  switch (settings.provider) {
    case 'offline': {
      const engine = new PocketsphinxSpeechToText();
      return { engine, readiness: pocketsphinxReadiness, close: () => engine.close() };
    }
    case 'openai':
      return {
        engine: new OpenAiSpeechToText(settings),
        readiness: () => Promise.resolve(networkReadiness('STT', settings, HTTP)),
      };
    case 'deepgram':
      return {
        engine: new DeepgramSpeechToText(settings),
        readiness: () => Promise.resolve(networkReadiness('STT', settings, HTTP_OR_WS)),
      };
  }
}

function textToSpeech(settings: AppConfig['speech']['tts']): Engine<TextToSpeech> {
  switch (settings.provider) {
    case 'offline':
      return { engine: new EspeakTextToSpeech(settings.voice), readiness: espeakReadiness };
    case 'openai':
      return {
        engine: new OpenAiTextToSpeech(settings),
        readiness: () => Promise.resolve(networkReadiness('TTS', settings, HTTP)),
      };
    case 'elevenlabs':
      return {
        engine: new ElevenLabsTextToSpeech(settings),
        readiness: () => Promise.resolve(networkReadiness('TTS', settings, HTTP_OR_WS)),
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
