import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG } from './config.token';
import type { AppConfig } from './config.types';

/** Makes the validated AppConfig injectable everywhere as APP_CONFIG. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
