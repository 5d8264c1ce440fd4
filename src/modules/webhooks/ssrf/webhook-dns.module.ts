import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { WebhookDnsResolver } from './target-policy';
import { systemDnsResolver, WEBHOOK_DNS_RESOLVER } from './webhook-target.guard';

/**
 * Provides WEBHOOK_DNS_RESOLVER to the whole app, once, from AppModule options: tests pass a
 * resolver that answers what they need (a public address at save, loopback at delivery).
 */
@Global()
@Module({})
export class WebhookDnsModule {
  static forRoot(resolver: WebhookDnsResolver = systemDnsResolver): DynamicModule {
    return {
      module: WebhookDnsModule,
      providers: [{ provide: WEBHOOK_DNS_RESOLVER, useValue: resolver }],
      exports: [WEBHOOK_DNS_RESOLVER],
    };
  }
}
