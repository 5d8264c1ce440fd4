import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from '../config';
import { MetricsModule } from '../metrics/metrics.module';
import { BullMqJobQueue } from './bullmq-job-queue';
import { bullMqQueueModules } from './bullmq-queues';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobQueue } from './job-queue';
import { JobRetryPolicyModule } from './job-retry-policy.module';

/**
 * Provides JobQueue everywhere: BullMQ (queues from @nestjs/bullmq) when REDIS_URL is set,
 * otherwise the in-process queue, with no BullModule loaded. Either way the @JobHandler
 * providers of the whole app run the jobs.
 */
@Global()
@Module({})
export class QueueModule {
  static forRoot(config: AppConfig): DynamicModule {
    const onRedis = config.redis.url !== undefined;
    return {
      module: QueueModule,
      imports: [
        DiscoveryModule,
        MetricsModule,
        JobRetryPolicyModule,
        ...(onRedis ? bullMqQueueModules() : []),
      ],
      providers: [
        JobHandlerRegistry,
        { provide: JobQueue, useClass: onRedis ? BullMqJobQueue : InProcessJobQueue },
      ],
      exports: [JobQueue],
    };
  }
}
