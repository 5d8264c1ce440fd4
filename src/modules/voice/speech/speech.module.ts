import { Inject, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '../../../config';
import { createSpeechEngines } from './create-speech-engines';
import { SPEECH_ENGINES, type SpeechEngines } from './speech-engines';

/** The configured speech recognition and synthesis engines, behind SPEECH_ENGINES. */
@Module({
  providers: [
    {
      provide: SPEECH_ENGINES,
      useFactory: (config: AppConfig) => createSpeechEngines(config),
      inject: [APP_CONFIG],
    },
  ],
  exports: [SPEECH_ENGINES],
})
export class SpeechModule implements OnApplicationBootstrap {
  constructor(
    @Inject(SPEECH_ENGINES) private readonly engines: SpeechEngines,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    // PinoLogger rather than Nest's Logger: the line reaches the app's log stream in every mode.
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext('SpeechEngines');
  }

  /** One line at start: which engines, and whether they can run here (never a key or URL). */
  async onApplicationBootstrap(): Promise<void> {
    const { stt, tts } = this.config.speech;
    const engines = `STT ${stt.provider}, TTS ${tts.provider}`;
    const readiness = await this.engines.readiness();
    if (readiness.ready) this.logger.info(`Speech engines ready: ${engines}`);
    else this.logger.warn(`Speech engines not ready (${engines}): ${readiness.reason}`);
  }
}
