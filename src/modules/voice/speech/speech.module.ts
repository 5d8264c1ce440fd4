import { detach } from '../../../common/detach';
import {
  type DynamicModule,
  Global,
  Inject,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '../../../config';
import { SwitchboardMetrics } from '../../../metrics/switchboard-metrics';
import { createSpeechEngines } from './create-speech-engines';
import { SPEECH_ENGINES, type SpeechEngines } from './speech-engines';

/** Engines given by AppModule options instead of the configured ones (see SuppliedSpeechModule). */
const SUPPLIED_SPEECH_ENGINES = Symbol('SuppliedSpeechEngines');

/** The configured speech recognition and synthesis engines, behind SPEECH_ENGINES. */
@Module({
  providers: [
    {
      provide: SPEECH_ENGINES,
      useFactory: (config: AppConfig, supplied?: SpeechEngines, metrics?: SwitchboardMetrics) =>
        supplied ?? createSpeechEngines(config, metrics?.engineEvents),
      inject: [
        APP_CONFIG,
        { token: SUPPLIED_SPEECH_ENGINES, optional: true },
        { token: SwitchboardMetrics, optional: true },
      ],
    },
  ],
  exports: [SPEECH_ENGINES],
})
export class SpeechModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(SPEECH_ENGINES) private readonly engines: SpeechEngines,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    // PinoLogger rather than Nest's Logger: the line reaches the app's log stream in every mode.
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext('SpeechEngines');
  }

  /**
   * One line at start: which engines, and whether they can run here (never a key or URL). Only the
   * voice runtime uses them: with it off (VOICE_RUNTIME=off, the CLI) there is nothing to check.
   */
  onApplicationBootstrap(): void {
    if (!this.config.voice.runtime) return;
    const { stt, tts } = this.config.speech;
    const engines = `STT ${stt.provider}, TTS ${tts.provider}`;
    // Logged when known, without holding up the server's ready (the check may spawn processes).
    detach(
      this.engines.readiness().then(
        (readiness) => {
          if (readiness.ready) this.logger.info(`Speech engines ready: ${engines}`);
          else this.logger.warn(`Speech engines not ready (${engines}): ${readiness.reason}`);
        },
        () => undefined, // VoiceRuntime logs a failed check
      ),
      { what: 'Speech engines readiness', logger: this.logger },
    );
    // A fallback that cannot run, a service that cannot be reached now: calls still go ahead
    // (the failover and the circuits deal with it), the operator is told.
    const warnings = this.engines.warnings?.();
    if (warnings)
      detach(
        warnings.then((found) => found.forEach((warning) => this.logger.warn(warning))),
        { what: 'Speech engines check', logger: this.logger },
      );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.engines.close?.();
  }
}

/**
 * Engines that replace the configured ones for the whole app, from AppModule options: tests give
 * a synthesis engine that yields a known tone, as an outside speech service would.
 */
@Global()
@Module({})
export class SuppliedSpeechModule {
  static forRoot(engines: SpeechEngines | undefined): DynamicModule {
    return {
      module: SuppliedSpeechModule,
      providers: engines ? [{ provide: SUPPLIED_SPEECH_ENGINES, useValue: engines }] : [],
      exports: engines ? [SUPPLIED_SPEECH_ENGINES] : [],
    };
  }
}
