import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { describeUnknown } from '../../../common/describe-error';
import { detach } from '../../../common/detach';
import { type AppConfig, InjectConfig } from '../../../config';
import { ConversationRepliesService } from './conversation-replies.service';
import type { MessagingMessageRow } from './messaging-conversations.schema';
import { MessagingMessagesRepository } from './messaging-messages.repository';
import { MessagingReplyClaimsRepository } from './messaging-reply-claims.repository';
import { nextTurn } from './reply-turn';

/**
 * How long a worker's claim on a conversation holds without renewal: a worker that died frees
 * its conversations this long after its last renewal (the sweeper then queues their messages).
 */
export const REPLY_CLAIM_TTL_MS = 60_000;
/** How often a working worker renews its claim (the model may stream for longer than the TTL). */
const CLAIM_RENEWAL_MS = REPLY_CLAIM_TTL_MS / 4;
/** The most messages answered as one turn. */
const TURN_LIMIT = 50;

interface Claim {
  organizationId: string;
  conversationId: string;
  workerId: string;
}

/**
 * The ReplyToMessage job of an incoming message: it answers the message's conversation, one
 * worker at a time across every process. The job claims the conversation (PostgreSQL, in its
 * row); when another worker holds it, the job only tells that worker to look again and ends. The
 * worker that holds it answers the pending messages turn by turn (nextTurn: messages that come
 * within MESSAGING_REPLY_PAUSE_MS of each other are one turn, one reply), marks each turn's
 * messages handled, and gives the claim back only once nothing is pending; so a message that
 * arrives while a reply is being written gets a follow-up reply that has seen it, never a second
 * reply at the same time. A worker that dies leaves a claim that expires (REPLY_CLAIM_TTL_MS);
 * a job that fails gives its claim back and its retry takes over.
 */
@Injectable()
export class ConversationReplyWorker {
  private readonly logger = new Logger('Messaging');
  private readonly pauseMs: number;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly clock: Clock,
    private readonly claims: MessagingReplyClaimsRepository,
    private readonly messages: MessagingMessagesRepository,
    private readonly replies: ConversationRepliesService,
  ) {
    this.pauseMs = config.messaging.replyPauseMs;
  }

  async reply(organizationId: string, messageId: string, attempt: number): Promise<void> {
    const incoming = await this.messages.findById(organizationId, messageId);
    if (incoming?.direction !== 'inbound') return;
    const { conversationId } = incoming;
    // Answered with its turn, and nothing pending since: the common case for all but one job of
    // a burst. Otherwise go on, even for a handled message: a retry takes over from its worker.
    if (incoming.handledAt && !(await this.messages.hasUnhandled(organizationId, conversationId))) {
      return;
    }
    const claim: Claim = { organizationId, conversationId, workerId: randomUUID() };
    const claimed = await this.claims.claimOrRequest(
      organizationId,
      conversationId,
      claim.workerId,
      REPLY_CLAIM_TTL_MS,
    );
    if (!claimed) return;
    const renewal = setInterval(() => this.renew(claim), CLAIM_RENEWAL_MS);
    renewal.unref();
    try {
      await this.answerPending(claim, attempt);
    } catch (error) {
      await this.claims
        .release(organizationId, conversationId, claim.workerId)
        .catch((failure: unknown) =>
          this.logger.warn({ conversationId, ...describeUnknown(failure) }, 'Claim not released'),
        );
      throw error;
    } finally {
      clearInterval(renewal);
    }
  }

  /** Turn after turn until nothing is pending and the claim is given back (or was lost). */
  private async answerPending(claim: Claim, attempt: number): Promise<void> {
    const { organizationId, conversationId, workerId } = claim;
    for (;;) {
      if (!(await this.claims.resume(organizationId, conversationId, workerId, REPLY_CLAIM_TTL_MS)))
        return;
      const pending = await this.messages.unhandled(organizationId, conversationId, TURN_LIMIT);
      const next = nextTurn(pending, this.pauseMs);
      if (next.kind === 'idle') {
        if (await this.claims.releaseIfDone(organizationId, conversationId, workerId)) return;
      } else if (next.kind === 'wait') {
        await sleep(next.ms);
      } else {
        const turn: MessagingMessageRow[] = next.messages;
        await this.replies.answerTurn(turn, attempt);
        await this.messages.markHandled(
          organizationId,
          turn.map((message) => message.id),
          this.clock.now(),
        );
      }
    }
  }

  private renew({ organizationId, conversationId, workerId }: Claim): void {
    detach(
      async () => {
        const held = await this.claims.renew(
          organizationId,
          conversationId,
          workerId,
          REPLY_CLAIM_TTL_MS,
        );
        if (!held) this.logger.warn({ conversationId }, 'Reply claim lost to another worker');
      },
      { what: 'Reply claim renewal', logger: this.logger },
    );
  }
}
