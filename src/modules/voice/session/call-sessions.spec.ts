import type { PinoLogger } from 'nestjs-pino';
import type { AppConfig } from '../../../config';
import type { ProcessDrain } from '../../../lifecycle/process-drain';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import type { SpeechEngines } from '../speech/speech-engines';
import { CallSessions } from './call-sessions';

function sessions(options: { runtime: boolean; llm: boolean; vadReady?: boolean }) {
  const loads: string[] = [];
  const warnings: unknown[] = [];
  const config = {
    voice: { runtime: options.runtime },
    llm: { apiUrl: options.llm ? 'http://llm.test/v1' : undefined },
    speech: { tts: { voice: 'en-us' } },
  } as unknown as AppConfig;
  const vad = {
    readiness: () => {
      loads.push('vad');
      return Promise.resolve(
        options.vadReady === false ? { ready: false, reason: 'no model' } : { ready: true },
      );
    },
  } as unknown as VoiceActivityDetector;
  const logger = {
    setContext: () => undefined,
    warn: (fields: unknown) => warnings.push(fields),
  } as unknown as PinoLogger;
  const engines = { stt: {}, tts: {} } as unknown as SpeechEngines;
  const unused = {} as never;
  const callSessions = new CallSessions(
    config,
    engines,
    unused,
    unused,
    unused,
    logger,
    vad,
    unused,
    unused,
    unused,
    unused,
    unused,
    unused,
    unused,
    unused,
    { register: () => undefined } as unknown as ProcessDrain,
  );
  return { callSessions, loads, warnings };
}

describe('CallSessions.warmUp', () => {
  it('loads the voice activity model before any call when calls hold conversations', async () => {
    const s = sessions({ runtime: true, llm: true });
    await s.callSessions.warmUp();
    expect(s.loads).toEqual(['vad']);
    expect(s.warnings).toEqual([]);
  });

  it('leaves it unloaded when no conversation can run (no model, or the runtime off)', async () => {
    for (const options of [
      { runtime: true, llm: false },
      { runtime: false, llm: true },
    ]) {
      const s = sessions(options);
      await s.callSessions.warmUp();
      expect(s.loads).toEqual([]);
    }
  });

  it('says so when the model cannot load', async () => {
    const s = sessions({ runtime: true, llm: true, vadReady: false });
    await s.callSessions.warmUp();
    expect(s.warnings).toEqual([{ reason: 'no model' }]);
  });
});
