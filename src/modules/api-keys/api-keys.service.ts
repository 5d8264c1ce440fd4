import { PERMISSIONS } from '@app/contracts';
import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import type { Principal } from '../../auth/access';
import { JobName, JobQueue } from '../../queue';
import { apiKeyMatches, generateApiKey, parseApiKey, prefixOf } from './api-key-format';
import { LAST_USED_INTERVAL_MS } from './api-key-used.handler';
import { ApiKeysRepository } from './api-keys.repository';
import type { ApiKeyRow } from './api-keys.schema';
import type { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';
import type { CreateApiKeyDto } from './dto/create-api-key.dto';
import { describeUnknown } from '../../common/describe-error';

/** Keys remembered as recently used; beyond this the oldest is forgotten (and may re-enqueue). */
const RECENT_USE_MEMORY = 10_000;

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /** Key id → when this process last enqueued its use, to skip a Redis round trip per request. */
  private readonly lastEnqueuedAt = new Map<string, number>();

  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly jobs: JobQueue,
  ) {}

  async create(principal: Principal, dto: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    const generated = generateApiKey();
    const row = await this.apiKeys.create(principal.organizationId, {
      name: dto.name,
      publicId: generated.publicId,
      secretHash: generated.secretHash,
      createdByUserId: principal.userId,
    });
    return {
      _id: row.id,
      name: row.name,
      key: generated.key,
      prefix: generated.prefix,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async list(organizationId: string): Promise<ApiKeyDto[]> {
    return (await this.apiKeys.listActive(organizationId)).map(toApiKeyDto);
  }

  async revoke(organizationId: string, id: string): Promise<void> {
    if (!(await this.apiKeys.revoke(organizationId, id, new Date()))) {
      throw new NotFoundException('API key not found');
    }
  }

  /** The operator CLI's revoke: a key named by id alone, in whichever organization holds it. */
  async revokeById(id: string): Promise<void> {
    const organizationId = await this.apiKeys.organizationOf(id);
    if (!organizationId) throw new NotFoundException('API key not found');
    await this.revoke(organizationId, id);
  }

  /** The principal a presented key stands for, or undefined; looked up on every request. */
  async authenticate(key: string): Promise<Principal | undefined> {
    const publicId = parseApiKey(key);
    if (!publicId) return undefined;
    const row = await this.apiKeys.findActiveByPublicId(publicId);
    if (!row || !apiKeyMatches(key, row.secretHash)) return undefined;
    this.recordUse(row);
    return {
      kind: 'apiKey',
      organizationId: row.organizationId,
      userId: row.createdByUserId,
      role: 'admin',
      permissions: PERMISSIONS,
      apiKeyId: row.id,
    };
  }

  /** Queues the lastUsedAt write (ApiKeyUsedHandler); the request does not wait for it. */
  private recordUse(row: ApiKeyRow): void {
    const now = Date.now();
    const last = this.lastEnqueuedAt.get(row.id);
    if (last !== undefined && now - last < LAST_USED_INTERVAL_MS) return;
    // Re-inserting keeps the map in enqueue order, so the first entry is the oldest.
    this.lastEnqueuedAt.delete(row.id);
    this.lastEnqueuedAt.set(row.id, now);
    if (this.lastEnqueuedAt.size > RECENT_USE_MEMORY) {
      const oldest = this.lastEnqueuedAt.keys().next();
      if (!oldest.done) this.lastEnqueuedAt.delete(oldest.value);
    }
    const minute = Math.floor(now / LAST_USED_INTERVAL_MS);
    this.jobs
      .enqueue(
        JobName.ApiKeyUsed,
        {
          organizationId: row.organizationId,
          apiKeyId: row.id,
          usedAt: new Date(now).toISOString(),
        },
        // One job per key per minute across every API process (BullMQ dedupes by id).
        { jobId: `api-key-used-${row.id}-${minute}` },
      )
      .catch((error: unknown) => {
        this.lastEnqueuedAt.delete(row.id);
        const reason = JSON.stringify(describeUnknown(error));
        this.logger.warn(`Could not queue last-use of API key ${row.id}: ${reason}`);
      });
  }
}

function toApiKeyDto(row: ApiKeyRow): ApiKeyDto {
  return {
    _id: row.id,
    name: row.name,
    prefix: prefixOf(row.publicId),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
