import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { describeUnknown } from '../../../common/describe-error';
import { JOB_RETRY_POLICY, type JobRetryPolicy } from '../../../queue/jobs';
import { PassageRetriever, searchKnowledgeBases } from '../../knowledge-bases/passage-retriever';
import type { PassageHit } from '../../knowledge-bases/knowledge-base-passages.repository';
import { CHAT_MODEL, type ChatModel } from '../../llm/chat-model';
import { LlmError } from '../../llm/llm.error';
import { MessagingAgentsRepository } from '../messaging-agents.repository';
import type { MessagingAgentRow } from '../messaging.schema';
import { isWindowOpen, OUTSIDE_WINDOW } from './customer-window';
import type { MessagePurpose, MessagingMessageRow } from './messaging-conversations.schema';
import { MessagingConversationsRepository } from './messaging-conversations.repository';
import { MessagingMessagesRepository, type NewMessage } from './messaging-messages.repository';
import { OutgoingMessageSender } from './outgoing-message.sender';
import { buildReplyRequest } from './reply-prompt';

/** Lines of the conversation the model is given; passages per reply. */
const HISTORY_LINES = 20;
const REPLY_PASSAGES = 3;
/** The platform's limit on a text message. */
const MAX_REPLY_LENGTH = 4096;

/**
 * The number's agent answering one incoming message (the ReplyToMessage job): on a new
 * conversation its welcome message first, then a reply streamed from the chat model (the
 * agent's prompt, the conversation so far, the best passages of its knowledge bases) and sent
 * as one message. Each is stored before it is sent, at most one of each per incoming message,
 * so a job that runs twice never answers twice. Without a model, or when the model fails for
 * good, the customer gets nothing more and the log gets a not_sent entry saying why.
 */
@Injectable()
export class ConversationRepliesService {
  private readonly logger = new Logger('Messaging');

  constructor(
    @Inject(CHAT_MODEL) private readonly chat: ChatModel,
    @Inject(JOB_RETRY_POLICY) private readonly policy: JobRetryPolicy,
    private readonly clock: Clock,
    private readonly retriever: PassageRetriever,
    private readonly agents: MessagingAgentsRepository,
    private readonly conversations: MessagingConversationsRepository,
    private readonly messages: MessagingMessagesRepository,
    private readonly sender: OutgoingMessageSender,
  ) {}

  /**
   * Marks the incoming message handled once this is done with it, whatever the outcome; a job
   * lost before that is queued again by the sweeper, and this runs again without answering twice.
   */
  async reply(organizationId: string, messageId: string, attempt: number): Promise<void> {
    const incoming = await this.messages.findById(organizationId, messageId);
    if (incoming?.direction !== 'inbound' || incoming.handledAt) return;
    await this.answerIncoming(incoming, attempt);
    await this.messages.markHandled(organizationId, messageId, this.clock.now());
  }

  private async answerIncoming(incoming: MessagingMessageRow, attempt: number): Promise<void> {
    const { organizationId, id: messageId } = incoming;
    const [conversation, agent] = await Promise.all([
      this.conversations.findById(organizationId, incoming.conversationId),
      this.agents.findByIntegration(organizationId, incoming.integrationId),
    ]);
    if (!conversation || !agent) return;
    if (incoming.opensConversation && agent.welcomeMessage) {
      await this.send(await this.answer(incoming, 'welcome', { text: agent.welcomeMessage }));
    }
    // Media, locations, reactions…: the agent reads text only (a caption counts as none).
    if (incoming.type !== 'text' || !incoming.text) return;
    const stored = await this.messages.findAnswer(organizationId, incoming.id, 'reply');
    if (stored) return this.send(stored);
    if (!isWindowOpen(conversation, this.clock.now())) {
      await this.answer(incoming, 'reply', { status: 'not_sent', ...errorOf(OUTSIDE_WINDOW) });
      await this.conversations.setNeedsTemplate(organizationId, conversation.id, true);
      return;
    }
    let text: string;
    try {
      text = await this.generate(agent, incoming);
    } catch (error) {
      if (!(error instanceof LlmError)) throw error;
      if (error.retryable && attempt < this.policy.attempts) throw error;
      const code = error.kind === 'not_configured' ? 'llm_not_configured' : 'llm_failed';
      await this.answer(incoming, 'reply', {
        status: 'not_sent',
        ...errorOf({ code, message: error.message }),
      });
      this.logger.warn({ messageId, code, kind: error.kind }, 'Messaging agent could not answer');
      return;
    }
    await this.send(await this.answer(incoming, 'reply', { text }));
  }

  /** Sends a stored answer unless an earlier run already tried (its retries are queued). */
  private async send(message: MessagingMessageRow): Promise<void> {
    if (message.status === 'pending' && message.sendAttempts === 0) {
      await this.sender.sendNow(message);
    }
  }

  private answer(
    incoming: MessagingMessageRow,
    purpose: MessagePurpose,
    values: Partial<NewMessage>,
  ): Promise<MessagingMessageRow> {
    return this.messages.createOutbound(incoming.organizationId, {
      conversationId: incoming.conversationId,
      integrationId: incoming.integrationId,
      direction: 'outbound',
      type: 'text',
      purpose,
      replyToId: incoming.id,
      status: 'pending',
      ...values,
    });
  }

  private async generate(agent: MessagingAgentRow, incoming: MessagingMessageRow): Promise<string> {
    const { organizationId } = incoming;
    const [history, passages] = await Promise.all([
      this.messages.history(organizationId, incoming.conversationId, incoming, HISTORY_LINES),
      this.passagesFor(agent, incoming.text ?? ''),
    ]);
    const request = buildReplyRequest({
      agent,
      passages,
      lines: history
        .filter((line) => line.text)
        .map((line) => ({
          from: line.direction === 'inbound' ? 'customer' : 'agent',
          text: line.text ?? '',
        })),
    });
    let text = '';
    for await (const event of this.chat.stream(request)) {
      if (event.kind === 'text') text += event.text;
    }
    text = text.trim();
    if (text === '') throw new LlmError('malformed', 'chat model answered no text');
    return text.slice(0, MAX_REPLY_LENGTH);
  }

  private async passagesFor(agent: MessagingAgentRow, query: string): Promise<PassageHit[]> {
    if (agent.knowledgeBaseIds.length === 0 || query.trim() === '') return [];
    try {
      return await searchKnowledgeBases(
        this.retriever,
        agent.organizationId,
        agent.knowledgeBaseIds,
        query,
        REPLY_PASSAGES,
      );
    } catch (error) {
      // A customer is better answered without passages than not at all.
      this.logger.warn({ agentId: agent.id, ...describeUnknown(error) }, 'knowledge search failed');
      return [];
    }
  }
}

const errorOf = (error: { code: string; message: string }) => ({
  errorCode: error.code,
  errorMessage: error.message,
});
