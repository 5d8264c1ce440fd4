import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppModuleOptions } from './app.module';
import type { AppConfig } from './config';
import { bodySizeLimit } from './http/body-size-limit';
import { SwitchboardHttpAdapter } from './http/http-server';
import { httpMetrics } from './metrics/http-metrics.middleware';
import { SwitchboardMetrics } from './metrics/switchboard-metrics';
import { serveOpenApi } from './openapi';

/** Builds the HTTP application (not yet listening): used by main.ts, the tests and scripts. */
export async function createApp(
  config: AppConfig,
  { logger, ...moduleOptions }: { logger?: boolean } & AppModuleOptions = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, moduleOptions),
    new SwitchboardHttpAdapter(config),
    {
      bodyParser: false,
      // request.rawBody: provider callbacks are signed over the exact bytes of the body.
      rawBody: true,
      bufferLogs: logger !== false,
      ...(logger === false ? { logger: false } : {}),
      abortOnError: false,
    },
  );
  if (logger !== false) app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', config.http.trustProxy);
  app.use(httpMetrics(app.get(SwitchboardMetrics)));
  // Ahead of the body parsers: they read a body before refusing it.
  app.use(bodySizeLimit(config));
  app.useBodyParser('json', { limit: config.http.jsonBodyLimitBytes });
  app.useBodyParser('urlencoded', { limit: config.http.jsonBodyLimitBytes, extended: false });
  if (config.http.docsEnabled) serveOpenApi(app);
  return app;
}
