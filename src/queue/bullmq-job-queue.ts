import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { type Job, type Queue, UnrecoverableError, Worker } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '../config';
import { Database } from '../database/database.service';
import { redisUrl } from './bullmq-queues';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobQueue } from './job-queue';
import {
  JOB_LANES,
  laneOf,
  type JobLane,
  type JobName,
  type JobOptions,
  type JobPayloads,
  type LaneCount,
} from './jobs';
import { describeUnknown } from '../common/describe-error';

/**
 * The queue of every job but webhook deliveries (they have their own, see JOB_LANES); job
 * names tell the handlers apart. Keys: `<REDIS_PREFIX>:<lane>:*`.
 */
export const JOBS_QUEUE_NAME: JobLane = 'jobs';

/** How long shutdown lets active jobs finish before closing the worker regardless. */
export const WORKER_DRAIN_TIMEOUT_MS = 10_000;

/**
 * Jobs in Redis (REDIS_URL set): durable, shared by every API and worker process. The queues
 * (and their default job options) come from @nestjs/bullmq (bullmq-queues.ts), which also closes
 * them at shutdown. The workers stay ours rather than @Processor/WorkerHost: @nestjs/bullmq
 * closes its workers in onApplicationShutdown, the phase that also closes the database, and waits
 * on active jobs without a bound; ours start only where PROCESS_ROLE runs jobs, keep their own
 * blocking connection, and drain (bounded) in beforeApplicationShutdown while the database is open.
 */
@Injectable()
export class BullMqJobQueue
  extends JobQueue
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly queues: Record<JobLane, Queue>;
  private workers: Worker[] = [];

  constructor(
    database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: JobHandlerRegistry,
    @InjectQueue('jobs') jobs: Queue,
    @InjectQueue('webhook-deliveries') webhookDeliveries: Queue,
    @InjectQueue('messaging') messaging: Queue,
  ) {
    super(database);
    // LoggedQueues: they log their own errors.
    this.queues = { jobs, 'webhook-deliveries': webhookDeliveries, messaging };
  }

  onApplicationBootstrap(): void {
    const runsWorker = this.config.process.role !== 'api';
    // The prefix only: the URL may carry a password.
    this.logger.log(
      `Queue: BullMQ on Redis (prefix ${this.config.redis.prefix}; ` +
        `${runsWorker ? 'worker running' : 'enqueue only, PROCESS_ROLE=api'})`,
    );
    if (!runsWorker) return;
    this.workers = (Object.keys(JOB_LANES) as JobLane[]).map((lane) => {
      const worker = new Worker(lane, (job: Job) => this.process(job), {
        // Blocking commands must wait through reconnects, so no retry limit per request.
        connection: { url: redisUrl(this.config), maxRetriesPerRequest: null },
        prefix: this.config.redis.prefix,
        concurrency: JOB_LANES[lane].concurrency,
      });
      worker.on('error', (error: Error) => this.logger.warn(`Worker: ${error.message}`));
      worker.on('failed', (job: Job | undefined, error: Error) => {
        if (!job) return;
        const message = `Job ${job.name} ${job.id} failed attempt ${job.attemptsMade}: ${JSON.stringify(describeUnknown(error))}`;
        // finishedOn is set only when BullMQ moved the job to failed for good.
        if (job.finishedOn) this.logger.error(`${message} (giving up)`);
        else this.logger.warn(`${message} (will retry)`);
      });
      return worker;
    });
  }

  protected async send<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: JobOptions,
  ): Promise<void> {
    await this.queues[laneOf(name)].add(name, payload, {
      // Our job id is BullMQ's deduplication id, not its job id: BullMQ would also refuse a job
      // id that a finished job kept for inspection still holds, the in-process queue would not.
      ...(options.jobId !== undefined ? { deduplication: { id: options.jobId } } : {}),
      delay: options.delayMs,
      ...(options.transient ? { removeOnComplete: true, removeOnFail: true } : {}),
    });
  }

  async counts(): Promise<LaneCount[]> {
    const lanes = Object.keys(JOB_LANES) as JobLane[];
    const perLane = await Promise.all(
      lanes.map(async (lane) => {
        const c = await this.queues[lane].getJobCounts(
          'waiting',
          'prioritized',
          'active',
          'delayed',
          'failed',
        );
        const counts: LaneCount[] = [
          { lane, state: 'waiting', count: (c.waiting ?? 0) + (c.prioritized ?? 0) },
          { lane, state: 'active', count: c.active ?? 0 },
          { lane, state: 'delayed', count: c.delayed ?? 0 },
          { lane, state: 'failed', count: c.failed ?? 0 },
        ];
        return counts;
      }),
    );
    return perLane.flat();
  }

  /** Stops taking jobs and lets the active ones finish while the database is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((worker) => this.drain(worker)));
  }

  private async drain(worker: Worker): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      worker.close().then(() => true),
      new Promise<false>((resolve) => {
        timeout = setTimeout(() => resolve(false), WORKER_DRAIN_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timeout);
    if (!closed) {
      this.logger.warn('Worker: jobs still active at shutdown; they will be retried');
      await worker.close(true);
    }
  }

  private async process(job: Job): Promise<void> {
    if (!this.registry.has(job.name)) {
      throw new UnrecoverableError(`No handler for job "${job.name}"`);
    }
    await this.registry.run(job.name, job.data as JobPayloads[typeof job.name], {
      attempt: job.attemptsMade + 1,
      jobId: job.deduplicationId ?? job.id ?? '',
    });
  }
}
