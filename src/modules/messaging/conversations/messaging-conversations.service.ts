import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { docsPage } from '../../../common/docs-page.dto';
import type { PageQuery } from '../../../common/page.query';
import { IdempotencyService } from '../../idempotency/idempotency.service';
import { MessagingIntegrationsRepository } from '../messaging-integrations.repository';
import { MessagingTemplatesRepository } from '../messaging-templates.repository';
import { MessagingTemplatesService } from '../messaging-templates.service';
import { fillTemplate } from '../template-parameters';
import type {
  MessagingConversationDto,
  MessagingConversationListDto,
  MessagingMessageDto,
  SendConversationTemplateDto,
} from './dto/messaging-conversation.dto';
import { isWindowOpen } from './customer-window';
import type {
  MessagingConversationRow,
  MessagingMessageRow,
} from './messaging-conversations.schema';
import { MessagingConversationsRepository } from './messaging-conversations.repository';
import { MessagingMessagesRepository } from './messaging-messages.repository';
import { toMessageDto } from './messaging-message.mapper';
import { OutgoingMessageSender } from './outgoing-message.sender';

/** The Idempotency-Key operation of a template send. */
const OPERATION = 'sendMessagingConversationTemplate';
const NOT_FOUND = 'Conversation not found';

/** What the organization reads of its agents' conversations, and the template that re-opens one. */
@Injectable()
export class MessagingConversationsService {
  constructor(
    private readonly clock: Clock,
    private readonly conversations: MessagingConversationsRepository,
    private readonly messages: MessagingMessagesRepository,
    private readonly integrations: MessagingIntegrationsRepository,
    private readonly templateCache: MessagingTemplatesService,
    private readonly templates: MessagingTemplatesRepository,
    private readonly sender: OutgoingMessageSender,
    private readonly idempotency: IdempotencyService,
  ) {}

  async list(organizationId: string, query: PageQuery): Promise<MessagingConversationListDto> {
    const { rows, total } = await this.conversations.list(organizationId, query.page, query.limit);
    const numbers = await this.phoneNumberIds(organizationId);
    const docs = rows.map((row) => this.toConversationDto(row, numbers.get(row.integrationId)));
    return docsPage(docs, total, query.page, query.limit);
  }

  async messagesOf(organizationId: string, id: string): Promise<MessagingMessageDto[]> {
    await this.find(organizationId, id);
    return (await this.messages.list(organizationId, id)).map(toMessageDto);
  }

  /**
   * Sends an APPROVED template of the conversation's number with the variables filled in: the
   * one message the platform takes outside the 24-hour window. It clears needsTemplate; the
   * customer's answer opens the window again and the agent takes over. With an
   * Idempotency-Key, a repeat answers the message the first request stored (as it stands now)
   * and sends nothing: a double POST never sends two templates.
   */
  async sendTemplate(
    organizationId: string,
    id: string,
    dto: SendConversationTemplateDto,
    key?: string,
  ): Promise<MessagingMessageDto> {
    const conversation = await this.find(organizationId, id);
    const integration = await this.integrations.findById(
      organizationId,
      conversation.integrationId,
    );
    if (!integration) throw new NotFoundException(NOT_FOUND);
    // Synchronises the cache when stale (409/502 when never synchronised and unreachable).
    await this.templateCache.listForNumber(organizationId, integration.phoneNumberId);
    const template = (await this.templates.list(organizationId, integration.id)).find(
      (row) => row.name === dto.name && row.language === dto.language,
    );
    if (!template)
      throw new NotFoundException(
        `Template ${dto.name} (${dto.language}) not found for this number`,
      );
    if (template.status !== 'APPROVED')
      throw new ConflictException(`Template ${dto.name} is ${template.status}, not APPROVED`);
    const filled = fillTemplate(template.components, template.parameterFormat, dto.variables ?? []);
    let created: MessagingMessageRow | undefined;
    const request = { conversationId: id, ...dto };
    const messageId = await this.idempotency.run(
      organizationId,
      OPERATION,
      key,
      request,
      async () => {
        const row = await this.messages.createOutbound(organizationId, {
          conversationId: conversation.id,
          integrationId: integration.id,
          direction: 'outbound',
          type: 'template',
          purpose: 'template',
          text: filled.text,
          template: {
            name: template.name,
            language: template.language,
            components: filled.components,
          },
          status: 'pending',
        });
        await this.conversations.setNeedsTemplate(organizationId, conversation.id, false);
        created = row;
        return row.id;
      },
    );
    if (created) return toMessageDto(await this.sender.sendNowAndReread(created));
    const stored = await this.messages.findById(organizationId, messageId);
    if (!stored) throw new NotFoundException(NOT_FOUND);
    return toMessageDto(stored);
  }

  private async find(organizationId: string, id: string): Promise<MessagingConversationRow> {
    const row = await this.conversations.findById(organizationId, id);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return row;
  }

  private async phoneNumberIds(organizationId: string): Promise<Map<string, string>> {
    const integrations = await this.integrations.list(organizationId);
    return new Map(integrations.map((row) => [row.id, row.phoneNumberId]));
  }

  private toConversationDto(
    row: MessagingConversationRow,
    phoneNumberId = '',
  ): MessagingConversationDto {
    return {
      _id: row.id,
      phoneNumberId,
      customerWaId: row.customerWaId,
      customerUserId: row.customerUserId,
      customerName: row.customerName,
      customerUsername: row.customerUsername,
      lastCustomerMessageAt: row.lastCustomerMessageAt.toISOString(),
      windowOpen: isWindowOpen(row, this.clock.now()),
      needsTemplate: row.needsTemplate,
      lastMessageAt: row.lastMessageAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
    };
  }
}
