/**
 * Every background job: its name and its payload. Payloads carry ids and timestamps, never
 * secrets or personal data (they sit in Redis and in logs).
 */
export enum JobName {
  ApiKeyUsed = 'api-keys.record-use',
  IndexCallRecordSearch = 'call-records.index-search',
}

export interface JobPayloads {
  [JobName.ApiKeyUsed]: { organizationId: string; apiKeyId: string; usedAt: string };
  [JobName.IndexCallRecordSearch]: { organizationId: string; batchId: string };
}

export interface JobOptions {
  /** Dedupe key: a job whose id is already queued is not added again. No ':' and not a number. */
  jobId?: string;
  delayMs?: number;
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
