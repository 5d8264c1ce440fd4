import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from '../config';
import { BullMqJobQueue } from './bullmq-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobQueue } from './job-queue';
import { DEFAULT_JOB_RETRY_POLICY, JOB_RETRY_POLICY } from './jobs';

/**
 * Provides JobQueue everywhere: BullMQ when REDIS_URL is set, otherwise the in-process queue.
 * Either way the @JobHandler providers of the whole app run the jobs.
 */
@Global()
@Module({})
export class QueueModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: QueueModule,
      imports: [DiscoveryModule],
      providers: [
        JobHandlerRegistry,
        { provide: JOB_RETRY_POLICY, useValue: DEFAULT_JOB_RETRY_POLICY },
        { provide: JobQueue, useClass: config.redis.url ? BullMqJobQueue : InProcessJobQueue },
      ],
      exports: [JobQueue],
    };
  }
}
