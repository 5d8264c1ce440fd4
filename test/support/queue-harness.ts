import { randomBytes } from 'node:crypto';
import { type LoggerService, Module, type Provider } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Job, Queue } from 'bullmq';
import { ConfigModule, loadConfig, type AppConfig } from '../../src/config';
import { Database, DatabaseModule } from '../../src/database';
import { JobQueue, QueueModule } from '../../src/queue';
import { JOB_RETRY_POLICY, type JobLane, type JobRetryPolicy } from '../../src/queue/jobs';
import { createTestDatabase, type TestDatabase } from './postgres';
import { deleteRedisKeys, REDIS_TEST_URL, TEST_ENCRYPTION_KEY, TEST_JWT_SECRET } from './test-app';

export type QueueDriver = 'in-process' | 'bullmq';

export interface QueueHarness {
  moduleRef: TestingModule;
  jobs: JobQueue;
  database: Database;
  config: AppConfig;
  /** The BullMQ job a job id (our dedupe key) names, in any state; BullMQ driver only. */
  storedJob(jobId: string, lane?: JobLane): Promise<Job | undefined>;
  /** Closes the Nest module (shutdown hooks run); the database and Redis keys stay. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface QueueHarnessOptions {
  /** Over the harness's environment (e.g. another REDIS_URL, PROCESS_ROLE). */
  env?: Record<string, string>;
  /** Receives Nest's log lines; none are kept by default. */
  logger?: LoggerService;
}

/**
 * The queue alone (no HTTP app) on a fresh PostgreSQL database, with the given job handlers
 * (add stubJobHandlers for the other job names) and, for 'bullmq', real Redis under its own prefix.
 */
export async function startQueueHarness(
  driver: QueueDriver,
  handlers: Provider[],
  retryPolicy: JobRetryPolicy,
  options: QueueHarnessOptions = {},
): Promise<QueueHarness> {
  const database: TestDatabase = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    JWT_SECRET: TEST_JWT_SECRET,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...(driver === 'bullmq'
      ? { REDIS_URL: REDIS_TEST_URL, REDIS_PREFIX: `sbtest-${randomBytes(4).toString('hex')}` }
      : {}),
    ...options.env,
  });
  @Module({ providers: handlers })
  class HandlersModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot(config),
      DatabaseModule,
      QueueModule.forRoot(config),
      HandlersModule,
    ],
  })
    .overrideProvider(JOB_RETRY_POLICY)
    .useValue(retryPolicy)
    // Quiet by default: tests of giving up log expected errors.
    .setLogger(options.logger ?? { log() {}, warn() {}, error() {} })
    .compile();
  await moduleRef.init();
  const inspectors = new Map<JobLane, Queue>();
  const inspector = (lane: JobLane) => {
    let queue = inspectors.get(lane);
    if (!queue) {
      queue = new Queue(lane, { connection: { url: REDIS_TEST_URL }, prefix: config.redis.prefix });
      inspectors.set(lane, queue);
    }
    return queue;
  };
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= moduleRef.close());
  return {
    moduleRef,
    jobs: moduleRef.get(JobQueue),
    database: moduleRef.get(Database),
    config,
    async storedJob(jobId, lane = 'jobs') {
      const all = await inspector(lane).getJobs([
        'active',
        'waiting',
        'delayed',
        'completed',
        'failed',
      ]);
      return all.find((job) => job.deduplicationId === jobId);
    },
    stop,
    async close() {
      await stop();
      await Promise.all([...inspectors.values()].map((queue) => queue.close()));
      await database.drop();
      // Only the test Redis can hold keys of ours (options.env may name one that is not there).
      if (config.redis.url === REDIS_TEST_URL) {
        await deleteRedisKeys(config.redis.url, config.redis.prefix);
      }
    },
  };
}
