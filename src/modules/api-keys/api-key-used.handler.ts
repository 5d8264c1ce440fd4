import { type HandlesJob, JobHandler, JobName, type JobPayloads } from '../../queue';
import { ApiKeysRepository } from './api-keys.repository';

/** lastUsedAt is written at most once per interval per key. */
export const LAST_USED_INTERVAL_MS = 60_000;

/** Records a key's use off the request path (ApiKeysService.authenticate enqueues it). */
@JobHandler(JobName.ApiKeyUsed)
export class ApiKeyUsedHandler implements HandlesJob<JobName.ApiKeyUsed> {
  constructor(private readonly apiKeys: ApiKeysRepository) {}

  async handle(payload: JobPayloads[JobName.ApiKeyUsed]): Promise<void> {
    await this.apiKeys.touchLastUsed(
      payload.organizationId,
      payload.apiKeyId,
      new Date(payload.usedAt),
      LAST_USED_INTERVAL_MS,
    );
  }
}
