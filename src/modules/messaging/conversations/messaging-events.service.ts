import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { type AppConfig, InjectConfig } from '../../../config';
import { Database } from '../../../database';
import { JobName, JobQueue } from '../../../queue';
import { MessagingIntegrationsRepository } from '../messaging-integrations.repository';
import type { MessagingIntegrationRow } from '../messaging.schema';
import { MessagingConversationsRepository } from './messaging-conversations.repository';
import { MessagingMessagesRepository } from './messaging-messages.repository';
import { MessagingWebhookEventsRepository } from './messaging-webhook-events.repository';
import { MessageStatusesService } from './message-statuses.service';
import { type IncomingMessage, parseDelivery } from './webhook-payload';

/**
 * Processes one stored webhook delivery (the ProcessMessagingEvent job). Each message and status
 * is routed by its business number to that number's organization; unknown numbers are ignored.
 * Every kind of message is stored (text, media, taps, locations, contact cards, reactions) and
 * its customer's window moves; the reply worker decides what needs an answer (a reaction none).
 * A message is stored once per wamid (insert-or-ignore on a unique key): only the delivery that
 * stored it queues the agent's reply (ConversationReplyWorker, MESSAGING_REPLY_PAUSE_MS later),
 * so redeliveries, even concurrent ones, answer once.
 */
@Injectable()
export class MessagingEventsService {
  private readonly logger = new Logger('Messaging');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly events: MessagingWebhookEventsRepository,
    private readonly integrations: MessagingIntegrationsRepository,
    private readonly conversations: MessagingConversationsRepository,
    private readonly messages: MessagingMessagesRepository,
    private readonly statuses: MessageStatusesService,
  ) {}

  /**
   * Stores a verified delivery and queues its processing. No transaction: the job is queued
   * only once the row is there, and a failure to queue fails the request, so the platform
   * delivers again (a stored row whose job was lost would otherwise be answered 200 and never
   * processed). A redelivery is harmless: messages are deduplicated when processed.
   */
  async receive(payload: unknown): Promise<void> {
    const eventId = await this.events.create(payload);
    await this.jobs.enqueue(
      JobName.ProcessMessagingEvent,
      { eventId },
      { jobId: `messaging-event-${eventId}` },
    );
  }

  async process(eventId: string): Promise<void> {
    const event = await this.events.findUnprocessed(eventId);
    if (!event) return;
    const { messages, statuses } = parseDelivery(event.payload, this.clock.now());
    const routes = new Map<string, MessagingIntegrationRow | undefined>();
    const route = async (phoneNumberId: string) => {
      if (!routes.has(phoneNumberId)) {
        const integration = await this.integrations.routeByPhoneNumberId(phoneNumberId);
        if (!integration) this.logger.log({ phoneNumberId }, 'Event for an unknown number ignored');
        routes.set(phoneNumberId, integration);
      }
      return routes.get(phoneNumberId);
    };
    for (const message of messages) {
      const integration = await route(message.phoneNumberId);
      if (integration) await this.store(integration, message);
    }
    for (const status of statuses) {
      const integration = await route(status.phoneNumberId);
      if (integration)
        await this.statuses.apply(integration.organizationId, integration.id, status);
    }
    await this.events.markProcessed(eventId, this.clock.now());
  }

  private store(integration: MessagingIntegrationRow, message: IncomingMessage): Promise<void> {
    const { organizationId } = integration;
    return this.database.transaction(async () => {
      const { conversation, created } = await this.conversations.upsertForCustomer(organizationId, {
        integrationId: integration.id,
        ...message.customer,
        messageAt: message.sentAt,
      });
      const stored = await this.messages.insertInbound(organizationId, {
        conversationId: conversation.id,
        integrationId: integration.id,
        direction: 'inbound',
        type: message.type,
        text: message.text ?? null,
        content: message.content ?? null,
        platformMessageId: message.id,
        status: 'received',
        opensConversation: created,
        platformAt: message.sentAt,
      });
      if (!stored) return;
      // After the pause: a customer still writing is answered once, for all they wrote.
      await this.jobs.enqueue(
        JobName.ReplyToMessage,
        { organizationId, messageId: stored.id },
        { jobId: `messaging-reply-${stored.id}`, delayMs: this.config.messaging.replyPauseMs },
      );
    });
  }
}
