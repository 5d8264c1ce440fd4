export { ConfigError } from './config.error';
export { ConfigModule } from './config.module';
export { APP_CONFIG, InjectConfig } from './config.token';
export type {
  AppConfig,
  ChatModelEndpoint,
  ProcessRole,
  S3StorageConfig,
  SpeechToTextConfig,
  TextToSpeechConfig,
} from './config.types';
export { loadConfig } from './load-config';
export {
  DEFAULT_VOICE_CATALOGUE,
  VOICE_MODES,
  type CatalogueVoice,
  type VoiceMode,
} from './voice-catalogue';
