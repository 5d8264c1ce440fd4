import { IdempotencyModule } from '../../idempotency/idempotency.module';
import { Module } from '@nestjs/common';
import { JobRetryPolicyModule } from '../../../queue/job-retry-policy.module';
import { KnowledgeBasesModule } from '../../knowledge-bases/knowledge-bases.module';
import { LlmModule } from '../../llm/llm.module';
import { MessagingModule } from '../messaging.module';
import { ConversationMediaService } from './conversation-media.service';
import { ConversationRepliesService } from './conversation-replies.service';
import { ConversationReplyWorker } from './conversation-reply-worker';
import { MessageStatusesService } from './message-statuses.service';
import { MessagingConversationsController } from './messaging-conversations.controller';
import { MessagingConversationsRepository } from './messaging-conversations.repository';
import { MessagingConversationsService } from './messaging-conversations.service';
import { MessagingEventsService } from './messaging-events.service';
import {
  ProcessMessagingEventHandler,
  ReplyToMessageHandler,
  SendMessageHandler,
} from './messaging-job.handlers';
import { MessagingEarlyStatusesRepository } from './messaging-early-statuses.repository';
import { MessagingMediaFetcher } from './messaging-media.fetcher';
import { MessagingMessagesRepository } from './messaging-messages.repository';
import { MessagingReplyClaimsRepository } from './messaging-reply-claims.repository';
import { MessagingSweepRepository } from './messaging-sweep.repository';
import { MessagingSweeper } from './messaging-sweeper';
import { MessagingWebhookEventsRepository } from './messaging-webhook-events.repository';
import { MessagingWebhookController } from './messaging-webhook.controller';
import { MessagingWebhookService } from './messaging-webhook.service';
import { OutgoingMessageSender } from './outgoing-message.sender';
import { TypingIndicator } from './typing-indicator';
import { VoiceNoteTranscriber } from './voice-note-transcriber';

/**
 * Conversations of the messaging agents: the platform's webhook (handshake, signed deliveries),
 * the agent's answers (one worker per conversation, one reply per customer turn, knowledge-base
 * passages, the chat model; voice notes heard by the voice runtime's speech-to-text), sending
 * with retries, and the routes that read conversations, download a customer's media and send a
 * template, and the sweeper that re-queues lost work and prunes old deliveries. Its own
 * module: it needs the knowledge bases, which themselves import MessagingModule.
 */
@Module({
  imports: [
    MessagingModule,
    KnowledgeBasesModule,
    LlmModule,
    JobRetryPolicyModule,
    IdempotencyModule,
  ],
  controllers: [MessagingWebhookController, MessagingConversationsController],
  providers: [
    MessagingWebhookEventsRepository,
    MessagingConversationsRepository,
    MessagingMessagesRepository,
    MessagingEarlyStatusesRepository,
    MessagingSweepRepository,
    MessagingReplyClaimsRepository,
    MessagingWebhookService,
    MessageStatusesService,
    MessagingEventsService,
    OutgoingMessageSender,
    TypingIndicator,
    MessagingMediaFetcher,
    VoiceNoteTranscriber,
    ConversationMediaService,
    ConversationRepliesService,
    ConversationReplyWorker,
    MessagingConversationsService,
    ProcessMessagingEventHandler,
    ReplyToMessageHandler,
    SendMessageHandler,
    MessagingSweeper,
  ],
})
export class MessagingConversationsModule {}
