import type { HttpsOptions } from '@nestjs/common/interfaces/external/https-options.interface';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { SwitchboardWebhooksOptions } from '@app/webhooks';
import { ConsumerModule } from './consumer.module';

export interface ConsumerAppOptions {
  webhooks: SwitchboardWebhooksOptions;
  /** Serve HTTPS directly (Switchboard delivers to https URLs only); else put TLS in front. */
  httpsOptions?: HttpsOptions;
  logger?: false;
}

/** The example consumer, ready to listen: main.ts runs it, the tests boot it the same way. */
export function createConsumerApp(options: ConsumerAppOptions): Promise<NestExpressApplication> {
  return NestFactory.create<NestExpressApplication>(ConsumerModule.forRoot(options.webhooks), {
    // The signature covers the exact bytes Switchboard sent: keep them next to the parsed body.
    rawBody: true,
    httpsOptions: options.httpsOptions,
    ...(options.logger === false ? { logger: false } : {}),
  });
}
