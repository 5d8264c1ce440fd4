import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config';
import { createSpeechEngines } from './create-speech-engines';
import { SPEECH_ENGINES, type SpeechEngines } from './speech-engines';

/** Engines given by AppModule options instead of the configured ones (see SuppliedSpeechModule). */
const SUPPLIED_SPEECH_ENGINES = Symbol('SuppliedSpeechEngines');

/** The configured speech recognition and synthesis engines, behind SPEECH_ENGINES. */
@Module({
  providers: [
    {
      provide: SPEECH_ENGINES,
      useFactory: (config: AppConfig, supplied?: SpeechEngines) =>
        supplied ?? createSpeechEngines(config),
      inject: [APP_CONFIG, { token: SUPPLIED_SPEECH_ENGINES, optional: true }],
    },
  ],
  exports: [SPEECH_ENGINES],
})
export class SpeechModule {}

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
