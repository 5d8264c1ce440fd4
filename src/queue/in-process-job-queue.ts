import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { describeUnknown } from '../common/describe-error';
import { Database } from '../database/database.service';
import { JobHandlerRegistry } from './job-handler.registry';
import { JobQueue } from './job-queue';
import {
  backoffDelayMs,
  JOB_LANES,
  JOB_RETRY_POLICY,
  laneOf,
  type JobLane,
  type JobName,
  type JobOptions,
  type JobPayloads,
  type JobRetryPolicy,
  type LaneCount,
} from './jobs';

/** How long shutdown waits for running jobs before giving up on them. */
export const IN_PROCESS_DRAIN_TIMEOUT_MS = 10_000;

interface Lane {
  running: number;
  /** Due jobs waiting for a free slot, oldest first. */
  ready: Array<() => Promise<void>>;
}

/**
 * Embedded mode's queue (REDIS_URL unset): jobs run in this process, with the same handlers,
 * retry policy and per-lane concurrency (JOB_LANES) as BullMQ workers. Jobs are not durable:
 * those still waiting when the process stops are dropped (logged), which suits the best-effort
 * work queued in embedded mode.
 */
@Injectable()
export class InProcessJobQueue
  extends JobQueue
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  /** Ids of jobs waiting, backing off or running: an id is deduped until its job is done. */
  private readonly pending = new Set<string>();
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; lane: JobLane }>();
  private readonly running = new Set<Promise<void>>();
  /** Told when the last pending job is done (see idle()). */
  private idleWaiters: Array<() => void> = [];
  private readonly lanes = Object.fromEntries(
    Object.keys(JOB_LANES).map((lane) => [lane, { running: 0, ready: [] }]),
  ) as unknown as Record<JobLane, Lane>;
  /**
   * The async context this queue was created in (no request, no transaction): timers start
   * there, so a job never inherits its caller's AsyncLocalStorage stores, as with BullMQ.
   */
  private readonly outsideCallers = new AsyncResource('InProcessJobQueue');
  private stopping = false;

  constructor(
    database: Database,
    private readonly registry: JobHandlerRegistry,
    @Inject(JOB_RETRY_POLICY) private readonly policy: JobRetryPolicy,
  ) {
    super(database);
  }

  onApplicationBootstrap(): void {
    this.logger.log('Queue: in-process (REDIS_URL unset; jobs run in this process)');
  }

  /** Jobs not yet finished (waiting, backing off or running). */
  get size(): number {
    return this.pending.size;
  }

  /** Failed jobs are not kept in embedded mode (they are logged), so `failed` is always 0. */
  counts(): Promise<LaneCount[]> {
    const delayed = [...this.timers.values()];
    return Promise.resolve(
      (Object.keys(JOB_LANES) as JobLane[]).flatMap((lane): LaneCount[] => [
        { lane, state: 'waiting', count: this.lanes[lane].ready.length },
        { lane, state: 'active', count: this.lanes[lane].running },
        { lane, state: 'delayed', count: delayed.filter((entry) => entry.lane === lane).length },
        { lane, state: 'failed', count: 0 },
      ]),
    );
  }

  /**
   * Resolves true once no job is pending (retries included), false after `timeoutMs`: a
   * short-lived process (the CLI) runs what it queued before it exits, as nobody else will.
   */
  async idle(timeoutMs: number): Promise<boolean> {
    if (this.pending.size === 0) return true;
    let timeout: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      new Promise<true>((resolve) => this.idleWaiters.push(() => resolve(true))),
      new Promise<false>((resolve) => {
        timeout = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timeout);
    return done;
  }

  protected send<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: JobOptions,
  ): Promise<void> {
    if (this.stopping) return Promise.reject(new Error('The queue is shutting down'));
    const jobId = options.jobId ?? randomUUID();
    if (!this.pending.has(jobId)) {
      this.pending.add(jobId);
      this.schedule(name, jobId, options.delayMs ?? 0, () => this.run(name, payload, jobId, 1));
    }
    return Promise.resolve();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    let dropped = this.timers.size;
    this.timers.clear();
    for (const lane of Object.values(this.lanes)) dropped += lane.ready.splice(0).length;
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

  private finished(jobId: string): void {
    this.pending.delete(jobId);
    if (this.pending.size > 0) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** After `delayMs` the job joins its lane's line; it runs when the lane has a free slot. */
  private schedule(name: JobName, jobId: string, delayMs: number, work: () => Promise<void>) {
    const lane = laneOf(name);
    const timer = this.outsideCallers.runInAsyncScope(() =>
      setTimeout(() => {
        this.timers.delete(jobId);
        this.lanes[lane].ready.push(work);
        this.startReady(lane);
      }, delayMs),
    );
    // A waiting job must not keep the process alive; shutdown drops it anyway.
    timer.unref();
    this.timers.set(jobId, { timer, lane });
  }

  private startReady(name: JobLane): void {
    const lane = this.lanes[name];
    while (lane.running < JOB_LANES[name].concurrency && lane.ready.length > 0 && !this.stopping) {
      const work = lane.ready.shift();
      if (!work) return;
      lane.running += 1;
      const done = work().finally(() => {
        lane.running -= 1;
        this.running.delete(done);
        this.startReady(name);
      });
      this.running.add(done);
    }
  }

  private async run<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    jobId: string,
    attempt: number,
  ): Promise<void> {
    try {
      await this.registry.run(name, payload, { attempt, jobId });
      this.finished(jobId);
    } catch (error) {
      const reason = JSON.stringify(describeUnknown(error));
      if (attempt >= this.policy.attempts || this.stopping) {
        this.finished(jobId);
        this.logger.error(`Job ${name} ${jobId} failed after ${attempt} attempt(s): ${reason}`);
        return;
      }
      const delay = backoffDelayMs(this.policy, attempt);
      this.logger.warn(`Job ${name} ${jobId} failed attempt ${attempt}, retrying: ${reason}`);
      this.schedule(name, jobId, delay, () => this.run(name, payload, jobId, attempt + 1));
    }
  }
}
