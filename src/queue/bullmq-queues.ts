import { type DynamicModule, Logger } from '@nestjs/common';
import { BullModule, type RegisterQueueOptions } from '@nestjs/bullmq';
import { type DefaultJobOptions, Queue, type QueueOptions } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../config';
import { JobRetryPolicyModule } from './job-retry-policy.module';
import { JOB_LANES, JOB_RETRY_POLICY, type JobLane, type JobRetryPolicy } from './jobs';

/** What every job gets unless send() says otherwise. */
export function defaultJobOptions(policy: JobRetryPolicy): DefaultJobOptions {
  return {
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: policy.backoffDelayMs },
    // Kept for inspection only: a job id dedupes until its job finishes (see BullMqJobQueue.send).
    removeOnComplete: { age: 24 * 3600, count: 1_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 5_000 },
  };
}

const queueLogger = new Logger('Queue');

/**
 * A Queue that logs its errors from the moment it exists. @nestjs/bullmq creates the queues while
 * other modules still start (the database, for one); an error emitted before anyone listens
 * would reach the console raw, outside the JSON logs.
 */
export class LoggedQueue extends Queue {
  constructor(name: string, options: QueueOptions) {
    super(name, options);
    // The message only: the connection options hold the URL and its password.
    this.on('error', (error: Error) => queueLogger.warn(`Queue: ${error.message}`));
  }
}

/**
 * @nestjs/bullmq's producer side: one connection setting for all lanes and a Queue per lane of
 * JOB_LANES, injectable with `@InjectQueue(lane)` and closed by @nestjs/bullmq at shutdown.
 * Only imported when REDIS_URL is set.
 */
export function bullMqQueueModules(): DynamicModule[] {
  const lanes = Object.keys(JOB_LANES) as JobLane[];
  // The way @nestjs/bullmq takes a Queue subclass; registerQueueAsync() reads it when called.
  BullModule.queueClass = LoggedQueue;
  return [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): QueueOptions => ({
        // Fail fast while Redis is unreachable instead of buffering commands without bound.
        connection: { url: redisUrl(config), enableOfflineQueue: false },
        prefix: config.redis.prefix,
      }),
    }),
    BullModule.registerQueueAsync(
      ...lanes.map((lane) => ({
        name: lane,
        imports: [JobRetryPolicyModule],
        inject: [JOB_RETRY_POLICY],
        useFactory: (policy: JobRetryPolicy): RegisterQueueOptions => ({
          defaultJobOptions: defaultJobOptions(policy),
        }),
      })),
    ),
  ];
}

export function redisUrl(config: AppConfig): string {
  if (!config.redis.url) throw new Error('The BullMQ queues need REDIS_URL');
  return config.redis.url;
}
