import { Injectable } from '@nestjs/common';
import type { JobName, JobOptions, JobPayloads } from './jobs';

/**
 * Where services send background work. QueueModule binds it to BullMQ when REDIS_URL is set,
 * otherwise to an in-process queue running the same handlers with the same retry policy.
 */
@Injectable()
export abstract class JobQueue {
  abstract enqueue<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options?: JobOptions,
  ): Promise<void>;
}
