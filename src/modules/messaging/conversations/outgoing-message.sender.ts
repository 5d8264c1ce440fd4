import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { describeUnknown } from '../../../common/describe-error';
import { type AppConfig, InjectConfig } from '../../../config';
import { JobName, JobQueue } from '../../../queue';
import { JOB_RETRY_POLICY, type JobRetryPolicy } from '../../../queue/jobs';
import { GraphClient } from '../graph/graph-client';
import { GraphError } from '../graph/graph-error';
import type { GraphOutgoingMessage, GraphRecipient } from '../graph/graph.types';
import { MessagingIntegrationsRepository } from '../messaging-integrations.repository';
import { MessagingIntegrationsService } from '../messaging-integrations.service';
import { isWindowOpen, OUTSIDE_WINDOW } from './customer-window';
import { MessageStatusesService } from './message-statuses.service';
import type {
  MessagingConversationRow,
  MessagingMessageRow,
} from './messaging-conversations.schema';
import { MessagingConversationsRepository } from './messaging-conversations.repository';
import { MessagingMessagesRepository } from './messaging-messages.repository';

type Outcome = 'sent' | 'retry' | 'final';

const NUMBER_REMOVED = {
  code: 'number_removed',
  message: 'The business number or the conversation is gone',
};

/**
 * Hands outgoing messages to the platform. The first attempt runs at once; when the platform
 * is down, throttles us or cannot be reached, the message stays pending and the queue tries
 * again with its backoff (MESSAGING_SEND_ATTEMPTS in all), then stores it failed. Any other
 * refusal is final at once: 131047 flags the conversation for a template, 131026 remembers the
 * number as undeliverable, a refused token marks the integration reauth_required.
 */
@Injectable()
export class OutgoingMessageSender {
  private readonly logger = new Logger('Messaging');
  private readonly maxSends: number;

  constructor(
    @InjectConfig() config: AppConfig,
    @Inject(JOB_RETRY_POLICY) private readonly policy: JobRetryPolicy,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly graph: GraphClient,
    private readonly messages: MessagingMessagesRepository,
    private readonly conversations: MessagingConversationsRepository,
    private readonly integrations: MessagingIntegrationsRepository,
    private readonly connected: MessagingIntegrationsService,
    private readonly statuses: MessageStatusesService,
  ) {
    this.maxSends = config.messaging.sendAttempts;
  }

  /** The first attempt; an outage queues the retries. */
  async sendNow(message: MessagingMessageRow): Promise<void> {
    const { organizationId, id } = message;
    const outcome = await this.attempt(message, this.maxSends <= 1);
    if (outcome === 'retry') {
      await this.jobs.enqueue(
        JobName.SendMessage,
        { organizationId, messageId: id },
        { jobId: `messaging-send-${id}`, delayMs: this.policy.backoffDelayMs },
      );
    }
  }

  /** sendNow, then the message as it now stands (for an answer to the one who sent it). */
  async sendNowAndReread(message: MessagingMessageRow): Promise<MessagingMessageRow> {
    await this.sendNow(message);
    return (await this.messages.findById(message.organizationId, message.id)) ?? message;
  }

  /** A queued retry: throws while the platform is still unavailable, until the last attempt. */
  async retry(organizationId: string, messageId: string, jobAttempt: number): Promise<void> {
    const message = await this.messages.findById(organizationId, messageId);
    if (message?.status !== 'pending') return;
    // Counted on the message: a retry the sweeper queued again starts a new job.
    const last = message.sendAttempts + 1 >= this.maxSends || jobAttempt >= this.policy.attempts;
    if ((await this.attempt(message, last)) === 'retry') {
      throw new Error('Messaging platform unavailable: the message will be sent again');
    }
  }

  private async attempt(message: MessagingMessageRow, last: boolean): Promise<Outcome> {
    const { organizationId, id } = message;
    const integration = await this.integrations.findById(organizationId, message.integrationId);
    const conversation = await this.conversations.findById(organizationId, message.conversationId);
    if (!integration || !conversation) {
      await this.messages.recordError(organizationId, id, 'not_sent', NUMBER_REMOVED);
      return 'final';
    }
    if (message.type === 'text' && !isWindowOpen(conversation, this.clock.now())) {
      await this.messages.recordError(organizationId, id, 'not_sent', OUTSIDE_WINDOW);
      await this.conversations.setNeedsTemplate(organizationId, conversation.id, true);
      return 'final';
    }
    await this.messages.countAttempt(organizationId, id);
    try {
      const token = this.connected.storedToken(integration);
      const platformId = await this.graph.sendMessage(
        token,
        integration.phoneNumberId,
        recipientOf(conversation),
        toGraphMessage(message),
      );
      await this.messages.markSent(organizationId, id, platformId, this.clock.now());
      await this.conversations.touch(organizationId, conversation.id);
      await this.settleEarlyStatuses(message, platformId);
      return 'sent';
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      const failure = { code: String(error.code ?? error.kind), message: error.message };
      if (error.isOutage && !last) {
        await this.messages.recordError(organizationId, id, 'pending', failure);
        return 'retry';
      }
      await this.messages.recordError(organizationId, id, 'failed', failure);
      this.logger.warn(
        { messageId: id, kind: error.kind, code: error.code, fbtraceId: error.fbtraceId },
        'Messaging platform refused a message',
      );
      if (error.kind === 'needs_template') {
        await this.conversations.setNeedsTemplate(organizationId, conversation.id, true);
      } else if (error.kind === 'undeliverable') {
        if (conversation.customerWaId !== null) {
          await this.statuses.markUndeliverable(
            organizationId,
            conversation.customerWaId,
            error.code,
          );
        }
      } else {
        await this.connected.noteRefusal(integration, error);
      }
      return 'final';
    }
  }

  /** Statuses the platform reported before the wamid was stored; the sweeper retries a failure. */
  private async settleEarlyStatuses(message: MessagingMessageRow, platformId: string) {
    try {
      await this.statuses.settle(message.organizationId, message.integrationId, platformId);
    } catch (error) {
      this.logger.warn(
        { messageId: message.id, ...describeUnknown(error) },
        'Early statuses not applied yet',
      );
    }
  }
}

/** The customer's number when the platform shared it (Meta prefers it), else their user id. */
function recipientOf(conversation: MessagingConversationRow): GraphRecipient {
  if (conversation.customerWaId !== null) return { phone: conversation.customerWaId };
  if (conversation.customerUserId !== null) return { userId: conversation.customerUserId };
  throw new Error('Conversation without a customer id');
}

function toGraphMessage(message: MessagingMessageRow): GraphOutgoingMessage {
  if (message.type === 'template' && message.template) {
    return {
      type: 'template',
      template: {
        name: message.template.name,
        language: { code: message.template.language, policy: 'deterministic' },
        components: message.template.components,
      },
    };
  }
  return { type: 'text', text: { body: message.text ?? '', preview_url: false } };
}
