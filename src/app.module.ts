import type { Writable } from 'node:stream';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { AgentsModule } from './modules/agents/agents.module';
import { ClockModule } from './common/clock';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { EnvelopeInterceptor } from './common/envelope.interceptor';
import { createValidationPipe } from './common/validation';
import { type AppConfig, ConfigModule } from './config';
import { DatabaseModule } from './database';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsEndpointModule } from './metrics/metrics-endpoint.module';
import { MetricsModule } from './metrics/metrics.module';
import { BatchesModule } from './modules/batches/batches.module';
import { CallProgressModule } from './modules/call-progress/call-progress.module';
import { ContactsModule } from './modules/contacts/contacts.module';
import { DialerModule } from './modules/dialer/dialer.module';
import { DncModule } from './modules/dnc/dnc.module';
import { EventsModule } from './modules/events/events.module';
import { HealthModule } from './modules/health/health.module';
import { KnowledgeBasesModule } from './modules/knowledge-bases/knowledge-bases.module';
import { MessagingConversationsModule } from './modules/messaging/conversations/messaging-conversations.module';
import { MessagingModule } from './modules/messaging/messaging.module';
import { PhonesModule } from './modules/phones/phones.module';
import { PostCallModule } from './modules/voice/post-call/post-call.module';
import { VideoAgentsModule } from './modules/video-agents/video-agents.module';
import type { SpeechEngines } from './modules/voice/speech/speech-engines';
import { SuppliedSpeechModule } from './modules/voice/speech/speech.module';
import { VoiceModule } from './modules/voice/voice.module';
import { WebhookDeliveriesModule } from './modules/webhook-deliveries/webhook-deliveries.module';
import { QueueModule } from './queue';
import { QueueBoardModule } from './modules/queue-board/queue-board.module';
import { RedisModule } from './redis/redis.module';
import { StorageModule } from './storage/storage.module';
import { TracingModule } from './tracing/tracing.module';
import { type WebhookDnsResolver, WebhookDnsModule } from './modules/webhooks/ssrf';
import { WebhooksModule } from './modules/webhooks/webhooks.module';

export interface AppModuleOptions {
  /** Where JSON log lines go; stdout by default (tests capture them). */
  logStream?: Writable;
  /** Resolves webhook host names for the SSRF checks; the OS resolver by default (tests fake it). */
  webhookDnsResolver?: WebhookDnsResolver;
  /** Replaces the speech engines STT_PROVIDER and TTS_PROVIDER chose (tests fake them). */
  speechEngines?: SpeechEngines;
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ClockModule,
        LifecycleModule,
        LoggingModule.forRoot(options.logStream),
        MetricsModule,
        TracingModule,
        DatabaseModule,
        RedisModule,
        QueueModule.forRoot(config),
        QueueBoardModule.forRoot(config),
        AuthModule,
        HealthModule,
        MetricsEndpointModule,
        PhonesModule,
        AgentsModule,
        VideoAgentsModule,
        StorageModule,
        KnowledgeBasesModule,
        MessagingModule,
        MessagingConversationsModule,
        DialerModule,
        SuppliedSpeechModule.forRoot(options.speechEngines),
        VoiceModule,
        CallProgressModule,
        DncModule,
        BatchesModule,
        ContactsModule,
        WebhookDnsModule.forRoot(options.webhookDnsResolver),
        WebhooksModule,
        EventsModule,
        WebhookDeliveriesModule,
        PostCallModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
