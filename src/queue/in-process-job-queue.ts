import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobQueue } from './job-queue';
import {
  assertValidJobId,
  backoffDelayMs,
  JOB_RETRY_POLICY,
  type JobName,
  type JobOptions,
  type JobPayloads,
  type JobRetryPolicy,
} from './jobs';
import { describeUnknown } from '../common/describe-error';

/** How long shutdown waits for running jobs before giving up on them. */
export const IN_PROCESS_DRAIN_TIMEOUT_MS = 10_000;

/**
 * Embedded mode's queue (REDIS_URL unset): jobs run in this process, with the same handlers and
 * retry policy as BullMQ. Jobs are not durable: those still waiting when the process stops are
 * dropped (logged), which suits the best-effort work queued in embedded mode.
 */
@Injectable()
export class InProcessJobQueue
  extends JobQueue
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger = new Logger('Queue');
  /** Ids of jobs waiting, backing off or running: an id is deduped until its job is done. */
  private readonly pending = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly registry: JobHandlerRegistry,
    @Inject(JOB_RETRY_POLICY) private readonly policy: JobRetryPolicy,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.logger.log('Queue: in-process (REDIS_URL unset; jobs run in this process)');
  }

  /** Jobs not yet finished (waiting, backing off or running). */
  get size(): number {
    return this.pending.size;
  }

  enqueue<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: JobOptions = {},
  ): Promise<void> {
    // A throw inside the executor becomes a rejection, as with BullMQ.
    return new Promise((resolve) => {
      if (this.stopping) throw new Error('The queue is shutting down');
      if (options.jobId !== undefined) assertValidJobId(options.jobId);
      const jobId = options.jobId ?? randomUUID();
      if (!this.pending.has(jobId)) {
        this.pending.add(jobId);
        this.schedule(jobId, options.delayMs ?? 0, () => this.run(name, payload, jobId, 1));
      }
      resolve();
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    const dropped = this.timers.size;
    this.timers.clear();
    if (dropped > 0) this.logger.warn(`Queue: dropped ${dropped} waiting job(s) at shutdown`);
    if (this.running.size === 0) return;
    let timeout: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.allSettled([...this.running]).then(() => true),
      new Promise<false>((resolve) => {
        timeout = setTimeout(() => resolve(false), IN_PROCESS_DRAIN_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timeout);
    if (!drained) this.logger.warn(`Queue: ${this.running.size} job(s) still running at shutdown`);
  }

  private schedule(jobId: string, delayMs: number, work: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(jobId);
      const done = work().finally(() => this.running.delete(done));
      this.running.add(done);
    }, delayMs);
    // A waiting job must not keep the process alive; shutdown drops it anyway.
    timer.unref();
    this.timers.set(jobId, timer);
  }

  private async run<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    jobId: string,
    attempt: number,
  ): Promise<void> {
    try {
      await this.registry.get(name).handle(payload, { attempt, jobId });
      this.pending.delete(jobId);
    } catch (error) {
      const reason = JSON.stringify(describeUnknown(error));
      if (attempt >= this.policy.attempts || this.stopping) {
        this.pending.delete(jobId);
        this.logger.error(`Job ${name} ${jobId} failed after ${attempt} attempt(s): ${reason}`);
        return;
      }
      const delay = backoffDelayMs(this.policy, attempt);
      this.logger.warn(`Job ${name} ${jobId} failed attempt ${attempt}, retrying: ${reason}`);
      this.schedule(jobId, delay, () => this.run(name, payload, jobId, attempt + 1));
    }
  }
}
