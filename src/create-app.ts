import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import type { AppModuleOptions } from './app.module';
import type { AppConfig } from './config';
import { serveOpenApi } from './openapi';

/** Builds the HTTP application (not yet listening): used by main.ts, the tests and scripts. */
export async function createApp(
  config: AppConfig,
  options: { logger?: boolean } & AppModuleOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, {
      logStream: options.logStream,
      webhookDnsResolver: options.webhookDnsResolver,
    }),
    {
      bodyParser: false,
      bufferLogs: options.logger !== false,
      ...(options.logger === false ? { logger: false } : {}),
      abortOnError: false,
    },
  );
  if (options.logger !== false) app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', config.http.trustProxy);
  app.useBodyParser('json', { limit: config.http.jsonBodyLimitBytes });
  app.useBodyParser('urlencoded', { limit: config.http.jsonBodyLimitBytes, extended: false });
  if (config.http.docsEnabled) serveOpenApi(app);
  return app;
}
