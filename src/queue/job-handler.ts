import type { JobName, JobPayloads } from './jobs';

export interface JobContext {
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  jobId: string;
}

/** A provider marked @JobHandler(name) runs every job of that name; throwing means retry. */
export interface HandlesJob<N extends JobName = JobName> {
  handle(payload: JobPayloads[N], context: JobContext): Promise<void>;
}
