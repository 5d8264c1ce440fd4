import {
  BadGatewayException,
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { newObjectId } from '../../common/object-id';
import { toE164 } from '../../common/phone-number';
import { type AppConfig, InjectConfig } from '../../config';
import { isUniqueViolation } from '../../database';
import { WebhookTargetGuard } from '../webhooks/ssrf';
import type {
  CreateMessagingIntegrationDto,
  MessagingIntegrationDto,
  MessagingWebhookUrlDto,
  UpdateMessagingIntegrationDto,
  UpdateMessagingWebhookUrlDto,
} from './dto/messaging-integration.dto';
import { GraphClient } from './graph/graph-client';
import { GraphError } from './graph/graph-error';
import {
  type MessagingIntegrationChanges,
  MessagingIntegrationsRepository,
} from './messaging-integrations.repository';
import { atPlatform, platformRefusal } from './messaging-platform';
import { MessagingTemplatesRepository } from './messaging-templates.repository';
import { MessagingTokens } from './messaging-tokens';
import type { MessagingIntegrationRow } from './messaging.schema';

const NOT_FOUND = 'Messaging integration not found';
const DUPLICATE = 'This business number is already connected';

/**
 * Business numbers of the messaging platform connected to an organization. Every change that
 * involves a token is checked at the platform first (reads), so a refused token or a number of
 * another business account leaves nothing behind.
 */
@Injectable()
export class MessagingIntegrationsService {
  private readonly verifyToken: string | undefined;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly integrations: MessagingIntegrationsRepository,
    private readonly templates: MessagingTemplatesRepository,
    private readonly tokens: MessagingTokens,
    private readonly graph: GraphClient,
    private readonly targets: WebhookTargetGuard,
  ) {
    this.verifyToken = config.messaging.verifyToken;
  }

  async create(
    organizationId: string,
    dto: CreateMessagingIntegrationDto,
  ): Promise<MessagingIntegrationDto> {
    if (await this.integrations.findByPhoneNumberId(organizationId, dto.phoneNumberId))
      throw new ConflictException(DUPLICATE);
    const number = await atPlatform(
      () => this.graph.getPhoneNumber(dto.accessToken, dto.phoneNumberId),
      'sent',
      'Phone number',
    );
    await this.assertNumberOfAccount(
      dto.accessToken,
      dto.phoneNumberId,
      dto.businessAccountId,
      400,
    );
    // Subscribing is idempotent at the platform: a save that fails below leaves no harm.
    await atPlatform(
      () => this.graph.subscribeApp(dto.accessToken, dto.businessAccountId),
      'sent',
      'Business account',
    );
    const id = newObjectId();
    try {
      const row = await this.integrations.create(organizationId, {
        id,
        phoneNumberId: dto.phoneNumberId,
        businessAccountId: dto.businessAccountId,
        phoneNumber: toE164(number.display_phone_number ?? '') ?? number.display_phone_number ?? '',
        displayName: dto.displayName?.trim() ?? number.verified_name ?? dto.phoneNumberId,
        qualityRating: number.quality_rating ?? null,
        accessToken: this.tokens.seal(organizationId, id, dto.accessToken),
      });
      return toIntegrationDto(row);
    } catch (error) {
      // Another organization (or a concurrent request) holds the number: events go to one place.
      if (isUniqueViolation(error)) throw new ConflictException(DUPLICATE);
      throw error;
    }
  }

  async list(organizationId: string): Promise<MessagingIntegrationDto[]> {
    return (await this.integrations.list(organizationId)).map(toIntegrationDto);
  }

  /** Only the fields sent change; a new token or business account is checked first. */
  async update(
    organizationId: string,
    phoneNumberId: string,
    dto: UpdateMessagingIntegrationDto,
  ): Promise<MessagingIntegrationDto> {
    const row = await this.find(organizationId, phoneNumberId);
    const changes: MessagingIntegrationChanges = {};
    if (dto.displayName !== undefined) changes.displayName = dto.displayName.trim();
    if (dto.accessToken !== undefined || dto.businessAccountId !== undefined) {
      const sent = dto.accessToken !== undefined;
      const token = dto.accessToken ?? this.storedToken(row);
      const businessAccountId = dto.businessAccountId ?? row.businessAccountId;
      await this.withToken(row, sent, () => this.graph.getPhoneNumber(token, phoneNumberId));
      await this.assertNumberOfAccount(token, phoneNumberId, businessAccountId, 409, row, sent);
      await this.withToken(
        row,
        sent,
        () => this.graph.subscribeApp(token, businessAccountId),
        'Business account',
      );
      changes.status = 'connected';
      if (sent) changes.accessToken = this.tokens.seal(organizationId, row.id, token);
      if (businessAccountId !== row.businessAccountId) {
        changes.businessAccountId = businessAccountId;
        changes.templatesSyncedAt = null;
        await this.templates.forget(organizationId, row.id);
      }
    }
    const updated = await this.integrations.update(organizationId, row.id, changes);
    if (!updated) throw new NotFoundException(NOT_FOUND);
    return toIntegrationDto(updated);
  }

  /**
   * Points the number's events at `webhookUrl` through the platform's per-number override
   * (our app stays subscribed to the business account), then reads it back.
   */
  async updateWebhookUrl(
    organizationId: string,
    dto: UpdateMessagingWebhookUrlDto,
  ): Promise<MessagingWebhookUrlDto> {
    const row = await this.find(organizationId, dto.phoneNumberId);
    const verdict = await this.targets.checkUrl(dto.webhookUrl);
    if (!verdict.allowed)
      throw new UnprocessableEntityException(`Invalid webhook URL: ${verdict.reason}`);
    const verifyToken = this.verifyToken;
    if (verifyToken === undefined) {
      throw new ServiceUnavailableException(
        'MESSAGING_VERIFY_TOKEN is not set: the platform could not verify the webhook URL',
      );
    }
    const url = verdict.url.href;
    const token = this.storedToken(row);
    await this.withToken(row, false, () =>
      this.graph.setWebhookOverride(token, row.phoneNumberId, url, verifyToken),
    );
    const applied = await this.withToken(row, false, () =>
      this.graph.getWebhookConfiguration(token, row.phoneNumberId),
    );
    if (applied.phone_number !== url) {
      throw new BadGatewayException('Messaging platform did not apply the webhook URL');
    }
    await this.integrations.update(organizationId, row.id, { webhookUrl: url });
    return { phoneNumberId: row.phoneNumberId, webhookUrl: url };
  }

  /** The integration of a connected number of the organization, or 404. */
  async find(organizationId: string, phoneNumberId: string): Promise<MessagingIntegrationRow> {
    const row = await this.integrations.findByPhoneNumberId(organizationId, phoneNumberId);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return row;
  }

  storedToken(row: MessagingIntegrationRow): string {
    return this.tokens.open(row.organizationId, row.id, row.accessToken);
  }

  /** Marks the integration reauth_required when the platform refused its stored token. */
  async noteRefusal(row: MessagingIntegrationRow, error: GraphError): Promise<void> {
    if (error.kind === 'auth' && row.status !== 'reauth_required')
      await this.integrations.update(row.organizationId, row.id, { status: 'reauth_required' });
  }

  private async withToken<T>(
    row: MessagingIntegrationRow,
    sent: boolean,
    step: () => Promise<T>,
    what = 'Phone number',
  ): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      if (!sent) await this.noteRefusal(row, error);
      throw platformRefusal(error, sent ? 'sent' : 'stored', what);
    }
  }

  /** The number must be one of the business account's at the platform (400 or 409 otherwise). */
  private async assertNumberOfAccount(
    token: string,
    phoneNumberId: string,
    businessAccountId: string,
    status: 400 | 409,
    row?: MessagingIntegrationRow,
    sent = true,
  ): Promise<void> {
    const step = () => this.graph.listPhoneNumberIds(token, businessAccountId);
    const ids = row
      ? await this.withToken(row, sent, step, 'Business account')
      : await atPlatform(step, 'sent', 'Business account');
    if (ids.includes(phoneNumberId)) return;
    const message = `Phone number ${phoneNumberId} does not belong to business account ${businessAccountId}`;
    throw status === 400 ? new BadRequestException(message) : new ConflictException(message);
  }
}

function toIntegrationDto(row: MessagingIntegrationRow): MessagingIntegrationDto {
  return {
    _id: row.id,
    phoneNumberId: row.phoneNumberId,
    phoneNumber: row.phoneNumber,
    displayName: row.displayName,
    status: row.status,
    businessAccountId: row.businessAccountId,
    webhookUrl: row.webhookUrl,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
