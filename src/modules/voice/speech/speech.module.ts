import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config';
import { createSpeechEngines } from './create-speech-engines';
import { SPEECH_ENGINES } from './speech-engines';

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
export class SpeechModule {}
