import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { newObjectId } from '../../common/object-id';
import { toPagination, type PageQuery } from '../../common/page.query';
import type {
  CreatedWebhookDto,
  RotatedWebhookSecretDto,
  UpdatedWebhookDto,
  WebhookDto,
  WebhookListDto,
} from './dto/webhook.dto';
import type {
  CreateWebhookDto,
  RotateWebhookSecretDto,
  UpdateWebhookDto,
} from './dto/write-webhook.dto';
import { WebhookTargetGuard } from './ssrf';
import { generateWebhookSecret, WebhookSecrets } from './webhook-secrets';
import { type WebhookChanges, WebhooksRepository } from './webhooks.repository';
import type { WebhookRow } from './webhooks.schema';

const NOT_FOUND = 'Webhook not found';

/**
 * The webhook endpoints of an organization. Secrets are sealed before they reach the database
 * and returned only by create and rotate. Delivery reads the row before each attempt, so every
 * change here applies to the next attempt.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly targets: WebhookTargetGuard,
  ) {}

  async create(organizationId: string, dto: CreateWebhookDto): Promise<CreatedWebhookDto> {
    const url = await this.allowedTarget(dto.url);
    const id = newObjectId();
    const secret = dto.secret ?? generateWebhookSecret();
    const row = await this.webhooks.create(organizationId, {
      id,
      name: dto.name.trim(),
      url,
      events: dto.events,
      secret: this.secrets.seal(organizationId, id, secret),
    });
    return { ...toWebhookDto(row), secret };
  }

  async list(organizationId: string, query: PageQuery): Promise<WebhookListDto> {
    const { rows, total } = await this.webhooks.list(organizationId, query.page, query.limit);
    return {
      webhooks: rows.map(toWebhookDto),
      pagination: toPagination(total, query.page, query.limit),
    };
  }

  async get(organizationId: string, id: string): Promise<WebhookDto> {
    const row = await this.webhooks.findById(organizationId, id);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toWebhookDto(row);
  }

  /** Omitted fields stay; a new secret replaces the current one at once (no overlap). */
  async update(
    organizationId: string,
    id: string,
    dto: UpdateWebhookDto,
  ): Promise<UpdatedWebhookDto> {
    const target = dto.url === undefined ? undefined : await this.allowedTarget(dto.url);
    const changes: WebhookChanges = {
      ...(dto.name !== undefined ? { name: dto.name.trim() } : {}),
      ...(target !== undefined ? { url: target } : {}),
      ...(dto.events !== undefined ? { events: dto.events } : {}),
      ...(dto.active !== undefined ? { active: dto.active } : {}),
      ...(dto.active === true ? { disabledReason: null, disabledAt: null } : {}),
      ...(dto.secret !== undefined
        ? {
            secret: this.secrets.seal(organizationId, id, dto.secret),
            previousSecret: null,
            previousSecretExpiresAt: null,
          }
        : {}),
    };
    const row =
      Object.keys(changes).length === 0
        ? await this.webhooks.findById(organizationId, id)
        : await this.webhooks.update(organizationId, id, changes);
    if (!row) throw new NotFoundException(NOT_FOUND);
    const { _id, name, url, events, active, updatedAt } = toWebhookDto(row);
    return { _id, name, url, events, active, updatedAt };
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.webhooks.delete(organizationId, id))) throw new NotFoundException(NOT_FOUND);
  }

  /** A new secret; the current one keeps signing for the grace period (0: not at all). */
  async rotateSecret(
    organizationId: string,
    id: string,
    dto: RotateWebhookSecretDto,
    now = new Date(),
  ): Promise<RotatedWebhookSecretDto> {
    const secret = generateWebhookSecret();
    const expiresAt =
      dto.gracePeriodSeconds > 0 ? new Date(now.getTime() + dto.gracePeriodSeconds * 1000) : null;
    const row = await this.webhooks.rotateSecret(
      organizationId,
      id,
      this.secrets.seal(organizationId, id, secret),
      expiresAt,
    );
    if (!row) throw new NotFoundException(NOT_FOUND);
    return { _id: row.id, secret, previousSecretExpiresAt: expiresAt?.toISOString() ?? null };
  }

  /** The URL as parsed (normalized: what delivery dials is what was checked), or 422. */
  private async allowedTarget(input: string): Promise<string> {
    const verdict = await this.targets.checkUrl(input);
    if (!verdict.allowed)
      throw new UnprocessableEntityException(`Invalid webhook URL: ${verdict.reason}`);
    return verdict.url.href;
  }
}

function toWebhookDto(row: WebhookRow): WebhookDto {
  return {
    _id: row.id,
    name: row.name,
    url: row.url,
    events: row.events as WebhookDto['events'],
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.disabledReason ? { disabledReason: row.disabledReason } : {}),
    ...(row.disabledAt ? { disabledAt: row.disabledAt.toISOString() } : {}),
  };
}
