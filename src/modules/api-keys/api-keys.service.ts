import { PERMISSIONS } from '@app/contracts';
import { Injectable, NotFoundException } from '@nestjs/common';
import type { Principal } from '../../auth/access';
import { apiKeyMatches, generateApiKey, parseApiKey, prefixOf } from './api-key-format';
import { ApiKeysRepository } from './api-keys.repository';
import type { ApiKeyRow } from './api-keys.schema';
import type { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';
import type { CreateApiKeyDto } from './dto/create-api-key.dto';

const LAST_USED_INTERVAL_MS = 60_000;

@Injectable()
export class ApiKeysService {
  constructor(private readonly apiKeys: ApiKeysRepository) {}

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

  /** The principal a presented key stands for, or undefined; looked up on every request. */
  async authenticate(key: string): Promise<Principal | undefined> {
    const publicId = parseApiKey(key);
    if (!publicId) return undefined;
    const row = await this.apiKeys.findActiveByPublicId(publicId);
    if (!row || !apiKeyMatches(key, row.secretHash)) return undefined;
    await this.apiKeys.touchLastUsed(row.organizationId, row.id, new Date(), LAST_USED_INTERVAL_MS);
    return {
      kind: 'apiKey',
      organizationId: row.organizationId,
      userId: row.createdByUserId,
      role: 'admin',
      permissions: PERMISSIONS,
      apiKeyId: row.id,
    };
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
