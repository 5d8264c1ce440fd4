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
import { customerLine, searchTextOf } from './customer-line';
import { isWindowOpen, OUTSIDE_WINDOW } from './customer-window';
import type { MessagePurpose, MessagingMessageRow } from './messaging-conversations.schema';
import { MessagingConversationsRepository } from './messaging-conversations.repository';
import { MessagingMessagesRepository, type NewMessage } from './messaging-messages.repository';
import { OutgoingMessageSender } from './outgoing-message.sender';
import { type ConversationLine, buildReplyRequest } from './reply-prompt';
import { TypingIndicator } from './typing-indicator';
import { VoiceNoteTranscriber } from './voice-note-transcriber';

/** Lines of the conversation the model is given (at least the turn); passages per reply. */
const HISTORY_LINES = 20;
const REPLY_PASSAGES = 3;
/** The turn's latest messages each searched in the knowledge bases (their best passages merged). */
const SEARCHED_MESSAGES = 3;
/** The platform's limit on a text message. */
const MAX_REPLY_LENGTH = 4096;

/**
 * The number's agent answering one customer turn (the messages a ConversationReplyWorker found
 * pending, oldest first): on a new conversation its welcome message first, then one reply
 * streamed from the chat model (the agent's prompt, the conversation so far with every message
 * of the turn, the best passages of its knowledge bases) and sent as one message, while the
 * customer sees their messages read and the agent typing. Whatever the customer sent is a line
 * of the conversation (customerLine: a tapped button with its payload, a photo, a voice note
 * heard by the voice runtime's speech-to-text, a location, contact cards); a turn of reactions
 * only is not answered. The reply belongs to the turn's latest message that needs one; each answer is stored before it is sent, at most one of each per incoming message, so
 * a turn answered twice is sent once. Without a model, or when the model fails for good, the
 * customer gets nothing more and the log gets a not_sent entry saying why.
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
    private readonly typing: TypingIndicator,
    private readonly voiceNotes: VoiceNoteTranscriber,
  ) {}

  /**
   * Answers the turn; throws (for the job to try again) on a model error worth retrying before
   * the job's last attempt. The caller marks the turn's messages handled once this is done.
   */
  async answerTurn(turn: readonly MessagingMessageRow[], attempt: number): Promise<void> {
    const latest = turn.at(-1);
    if (!latest) return;
    const { organizationId } = latest;
    const [conversation, agent] = await Promise.all([
      this.conversations.findById(organizationId, latest.conversationId),
      this.agents.findByIntegration(organizationId, latest.integrationId),
    ]);
    if (!conversation || !agent) return;
    const opening = turn.find((message) => message.opensConversation);
    if (opening && agent.welcomeMessage) {
      await this.send(await this.answer(opening, 'welcome', { text: agent.welcomeMessage }));
    }
    // Everything but a reaction or a system notice is answered: text, taps, media, places.
    const said = turn.filter(isAnswerable);
    const answering = said.at(-1);
    if (!answering) return;
    const stored = await this.messages.findAnswer(organizationId, answering.id, 'reply');
    if (stored) return this.send(stored);
    if (!isWindowOpen(conversation, this.clock.now())) {
      await this.answer(answering, 'reply', { status: 'not_sent', ...errorOf(OUTSIDE_WINDOW) });
      await this.conversations.setNeedsTemplate(organizationId, conversation.id, true);
      return;
    }
    const typing = this.typing.show(answering);
    let text: string;
    try {
      // While the customer sees the agent typing: their voice notes are heard first.
      const heard = await this.voiceNotes.hear(turn);
      text = await this.generate(agent, heard, heard.filter(isAnswerable));
    } catch (error) {
      if (!(error instanceof LlmError)) throw error;
      if (error.retryable && attempt < this.policy.attempts) throw error;
      const code = error.kind === 'not_configured' ? 'llm_not_configured' : 'llm_failed';
      await this.answer(answering, 'reply', {
        status: 'not_sent',
        ...errorOf({ code, message: error.message }),
      });
      this.logger.warn(
        { messageId: answering.id, code, kind: error.kind },
        'Messaging agent could not answer',
      );
      return;
    } finally {
      // Bounded and never failing: the reply must not overtake its own typing indicator.
      await typing;
    }
    await this.send(await this.answer(answering, 'reply', { text }));
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

  private async generate(
    agent: MessagingAgentRow,
    turn: readonly MessagingMessageRow[],
    said: readonly MessagingMessageRow[],
  ): Promise<string> {
    const latest = turn[turn.length - 1];
    const [history, passages] = await Promise.all([
      this.messages.history(
        latest.organizationId,
        latest.conversationId,
        latest,
        Math.max(HISTORY_LINES, turn.length),
      ),
      this.passagesFor(agent, said.slice(-SEARCHED_MESSAGES).map(searchTextOf)),
    ]);
    // The turn last, after what we sent while the customer wrote it: it is what is answered.
    const inTurn = new Set(turn.map((message) => message.id));
    const request = buildReplyRequest({
      agent,
      passages,
      lines: [
        ...history.filter((line) => !inTurn.has(line.id)),
        ...history.filter((line) => inTurn.has(line.id)),
      ]
        .map((line): ConversationLine | undefined => {
          const said = line.direction === 'inbound' ? customerLine(line) : line.text;
          if (!said) return undefined;
          return { from: line.direction === 'inbound' ? 'customer' : 'agent', text: said };
        })
        .filter((line) => line !== undefined),
    });
    let text = '';
    for await (const event of this.chat.stream(request)) {
      if (event.kind === 'text') text += event.text;
    }
    text = text.trim();
    if (text === '') throw new LlmError('malformed', 'chat model answered no text');
    return text.slice(0, MAX_REPLY_LENGTH);
  }

  /**
   * The best passages for the customer's latest message, its earlier ones searched beside it
   * ("#123" after "where is my order?"): the retriever fuses them (PassageSearchOptions.context).
   */
  private async passagesFor(agent: MessagingAgentRow, said: string[]): Promise<PassageHit[]> {
    const [query, ...context] = said.filter((text) => text.trim() !== '').reverse();
    if (agent.knowledgeBaseIds.length === 0 || query === undefined) return [];
    try {
      return await searchKnowledgeBases(
        this.retriever,
        agent.organizationId,
        agent.knowledgeBaseIds,
        query,
        REPLY_PASSAGES,
        { context },
      );
    } catch (error) {
      // A customer is better answered without passages than not at all.
      this.logger.warn({ agentId: agent.id, ...describeUnknown(error) }, 'knowledge search failed');
      return [];
    }
  }
}

/** A reaction or a system notice needs no answer; anything else the customer sent does. */
const isAnswerable = (message: MessagingMessageRow) => customerLine(message) !== undefined;

const errorOf = (error: { code: string; message: string }) => ({
  errorCode: error.code,
  errorMessage: error.message,
});
