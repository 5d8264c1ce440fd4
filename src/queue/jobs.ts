/**
 * Every background job: its name and its payload. Payloads carry ids and timestamps, never
 * secrets or personal data (they sit in Redis and in logs).
 */
export enum JobName {
  ApiKeyUsed = 'api-keys.record-use',
  DeliverWebhook = 'webhooks.deliver',
  IndexCallRecordSearch = 'call-records.index-search',
  ExtractKnowledgeBaseDocument = 'knowledge-bases.extract-document',
  AnalyzeCall = 'voice.analyze-call',
  ProcessMessagingEvent = 'messaging.process-event',
  ReplyToMessage = 'messaging.reply',
  SendMessage = 'messaging.send',
}

export interface JobPayloads {
  [JobName.ApiKeyUsed]: { organizationId: string; apiKeyId: string; usedAt: string };
  /** One attempt of one delivery: `attempt` is the number it would be (stale ones are skipped). */
  [JobName.DeliverWebhook]: { deliveryId: string; attempt: number };
  [JobName.IndexCallRecordSearch]: { organizationId: string; batchId: string };
  /** Extracts, chunks and indexes one uploaded document's text. */
  [JobName.ExtractKnowledgeBaseDocument]: { organizationId: string; documentId: string };
  /** Summary and analysis of a completed call whose phone log holds a conversation. */
  [JobName.AnalyzeCall]: { organizationId: string; phoneLogId: string };
  /** One stored delivery of the messaging platform's webhook (messages and statuses). */
  [JobName.ProcessMessagingEvent]: { eventId: string };
  /** The agent's answer (welcome first on a new conversation) to one incoming message. */
  [JobName.ReplyToMessage]: { organizationId: string; messageId: string };
  /** A retry of an outgoing message the platform could not take. */
  [JobName.SendMessage]: { organizationId: string; messageId: string };
}

/**
 * BullMQ queues and how many jobs each worker runs at once. Webhook deliveries get their own
 * queue: they wait on the network and on batched statements most of the time, so a worker keeps
 * many in flight (at 100 one worker delivered ~2,500/s on 2 cores, at 800 ~4,600–4,900/s,
 * CPU-bound; 400, 600 and 1,200 were slower; docs/benchmarks.md) without crowding out the
 * other jobs.
 */
export const JOB_LANES = {
  jobs: { concurrency: 5 },
  'webhook-deliveries': { concurrency: 800 },
  // Messaging replies wait on the model for seconds each, holding no database connection
  // meanwhile: replies in flight = deliveries per second × the model's latency, so 200/s with a
  // 2 s model needs 400 plus the processing jobs (at 200 the lane drained only 100/s).
  messaging: { concurrency: 600 },
} as const;

export type JobLane = keyof typeof JOB_LANES;

/** How many jobs of a lane are in one state, for the queue-depth metric. */
export interface LaneCount {
  lane: JobLane;
  state: 'waiting' | 'active' | 'delayed' | 'failed';
  count: number;
}

const MESSAGING_JOBS: ReadonlySet<JobName> = new Set([
  JobName.ProcessMessagingEvent,
  JobName.ReplyToMessage,
  JobName.SendMessage,
]);

export const laneOf = (name: JobName): JobLane => {
  if (name === JobName.DeliverWebhook) return 'webhook-deliveries';
  return MESSAGING_JOBS.has(name) ? 'messaging' : 'jobs';
};

export interface JobOptions {
  /**
   * Dedupe key: while a job with this id waits, is delayed, backs off or runs, another is not
   * added; once it has finished (done or given up) the id can be queued again. Both drivers.
   * No ':' and not a number.
   */
  jobId?: string;
  delayMs?: number;
  /**
   * Keep no record of the job once it finishes (BullMQ otherwise keeps finished jobs for a day
   * or a week, for inspection). For callers that keep their own record of the work (webhook
   * deliveries, in PostgreSQL).
   */
  transient?: boolean;
}

/** How often a failing job runs in all, and the first retry's delay (doubling each time). */
export interface JobRetryPolicy {
  attempts: number;
  backoffDelayMs: number;
}

/** Shared by both backends, so embedded mode retries exactly as BullMQ does. */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_DELAY_MS = 1_000;
export const DEFAULT_JOB_RETRY_POLICY: JobRetryPolicy = {
  attempts: JOB_ATTEMPTS,
  backoffDelayMs: JOB_BACKOFF_DELAY_MS,
};

/** Injection token of the JobRetryPolicy (tests provide small delays). */
export const JOB_RETRY_POLICY = Symbol('JOB_RETRY_POLICY');

/** BullMQ's exponential backoff: the delay before retry number `failedAttempts`. */
export function backoffDelayMs(policy: JobRetryPolicy, failedAttempts: number): number {
  return policy.backoffDelayMs * 2 ** (failedAttempts - 1);
}

/** BullMQ refuses these ids; checking in both backends keeps embedded mode honest. */
export function assertValidJobId(jobId: string): void {
  if (jobId === '' || jobId.includes(':') || `${parseInt(jobId, 10)}` === jobId) {
    throw new Error(`Invalid job id "${jobId}": must be non-empty, not an integer, without ':'`);
  }
}
