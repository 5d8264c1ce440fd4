export { JobHandler } from './job-handler.decorator';
export type { HandlesJob, JobContext } from './job-handler';
export { JobQueue } from './job-queue';
export { JobName, type JobOptions, type JobPayloads } from './jobs';
export { QueueModule } from './queue.module';
