import { Injectable, Logger } from '@nestjs/common';
import { describeUnknown } from '../common/describe-error';
import { Database } from '../database/database.service';
import {
  assertValidJobId,
  type JobName,
  type JobOptions,
  type JobPayloads,
  type LaneCount,
} from './jobs';

/**
 * Where services send background work. QueueModule binds it to BullMQ when REDIS_URL is set,
 * otherwise to an in-process queue running the same handlers with the same retry policy.
 *
 * One rule for both: a job enqueued inside `Database.transaction()` is sent once that
 * transaction commits and dropped if it rolls back, so a job never runs before (or without) the
 * rows it is about. A job id dedupes while a job with that id waits, is delayed, backs off or
 * runs; once it has finished (done or given up) the same id can be queued again.
 */
@Injectable()
export abstract class JobQueue {
  protected readonly logger = new Logger('Queue');

  constructor(private readonly database: Database) {}

  /**
   * Outside a transaction: resolves once the job is queued. Inside one: resolves at once; the
   * job is sent after the commit, and a failure to send then is logged (the change is durable).
   */
  async enqueue<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: JobOptions = {},
  ): Promise<void> {
    if (options.jobId !== undefined) assertValidJobId(options.jobId);
    if (!this.database.inTransaction) return this.send(name, payload, options);
    this.database.afterCommit(() =>
      this.send(name, payload, options).catch((error: unknown) => {
        const reason = JSON.stringify(describeUnknown(error));
        this.logger.warn(`Could not queue job ${name} after commit: ${reason}`);
      }),
    );
  }

  /** Jobs per lane and state now (the queue-depth metric). */
  abstract counts(): Promise<LaneCount[]>;

  /** Hands the job to the driver now; `options.jobId` is already valid. */
  protected abstract send<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: JobOptions,
  ): Promise<void>;
}
