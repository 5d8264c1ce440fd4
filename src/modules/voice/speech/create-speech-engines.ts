import type { AppConfig } from '../../../config';
import type { SpeechEngines } from './speech-engines';

/** The engines of STT_PROVIDER and TTS_PROVIDER (contract §7). */
export function createSpeechEngines(_config: AppConfig): SpeechEngines {
  const notBuilt = (): never => {
    throw new Error('speech engines are not available yet');
  };
  return {
    stt: { open: notBuilt },
    tts: { synthesize: notBuilt },
    readiness: () => Promise.resolve({ ready: false, reason: 'speech engines are not built yet' }),
  };
}
