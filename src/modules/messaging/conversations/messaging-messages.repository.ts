import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, getTableColumns, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { Database } from '../../../database';
import {
  type MessagePurpose,
  type MessageStatus,
  messagingMessages,
  type MessagingMessageRow,
} from './messaging-conversations.schema';
import type { InboundContent } from './inbound-content';
import type { DeliveryStatus } from './webhook-payload';

export type NewMessage = Omit<
  typeof messagingMessages.$inferInsert,
  'id' | 'organizationId' | 'createdAt' | 'updatedAt'
>;

export interface MessageError {
  code: string;
  message: string;
}

const inOrganization = (organizationId: string, id: string) =>
  and(eq(messagingMessages.organizationId, organizationId), eq(messagingMessages.id, id));

const inConversation = (organizationId: string, conversationId: string) =>
  and(
    eq(messagingMessages.organizationId, organizationId),
    eq(messagingMessages.conversationId, conversationId),
  );

/** Statuses only move up: pending < sent < delivered < read; failed and not_sent are final. */
const rank = (status: unknown) =>
  sql`CASE ${status} WHEN 'pending' THEN 0 WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 ELSE 9 END`;

/** An incoming message its reply worker has not handled yet. */
export const isUnhandledInbound = and(
  eq(messagingMessages.direction, 'inbound'),
  isNull(messagingMessages.handledAt),
);

/** An incoming message waiting for its reply worker (see `unhandled`). */
export type UnhandledMessage = MessagingMessageRow & { ageMs: number; answered: boolean };

/** What the customer was actually told: sent (or later) outgoing text. */
const SEEN_BY_CUSTOMER: MessageStatus[] = ['sent', 'delivered', 'read'];

/** The conversation log; each query starts from the organization. */
@Injectable()
export class MessagingMessagesRepository {
  constructor(private readonly database: Database) {}

  /** The incoming message, or undefined when its wamid is already stored (a redelivery). */
  async insertInbound(
    organizationId: string,
    values: NewMessage,
  ): Promise<MessagingMessageRow | undefined> {
    const [row] = await this.database.db
      .insert(messagingMessages)
      .values({ ...values, organizationId })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  /**
   * An outgoing welcome or reply to an incoming message (at most one of each: a second
   * insert answers the first row), or a template.
   */
  async createOutbound(organizationId: string, values: NewMessage): Promise<MessagingMessageRow> {
    const [row] = await this.database.db
      .insert(messagingMessages)
      .values({ ...values, organizationId })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    const existing =
      values.replyToId && values.purpose
        ? await this.findAnswer(organizationId, values.replyToId, values.purpose)
        : undefined;
    if (!existing) throw new Error('Outgoing message conflicts with no stored message');
    return existing;
  }

  async findById(organizationId: string, id: string): Promise<MessagingMessageRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingMessages)
      .where(inOrganization(organizationId, id));
    return row;
  }

  async findAnswer(
    organizationId: string,
    replyToId: string,
    purpose: MessagePurpose,
  ): Promise<MessagingMessageRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingMessages)
      .where(
        and(
          eq(messagingMessages.organizationId, organizationId),
          eq(messagingMessages.replyToId, replyToId),
          eq(messagingMessages.purpose, purpose),
        ),
      );
    return row;
  }

  /** Our message holding the platform's wamid, if any yet. */
  async findOutboundByPlatformId(
    organizationId: string,
    integrationId: string,
    platformMessageId: string,
  ): Promise<Pick<MessagingMessageRow, 'id' | 'conversationId'> | undefined> {
    const [row] = await this.database.db
      .select({ id: messagingMessages.id, conversationId: messagingMessages.conversationId })
      .from(messagingMessages)
      .where(
        and(
          eq(messagingMessages.organizationId, organizationId),
          eq(messagingMessages.integrationId, integrationId),
          eq(messagingMessages.platformMessageId, platformMessageId),
          eq(messagingMessages.direction, 'outbound'),
        ),
      );
    return row;
  }

  /**
   * The conversation's incoming messages not handled yet, oldest first (at most `limit`), with
   * their age by the database's clock and whether a reply to them is stored.
   */
  unhandled(
    organizationId: string,
    conversationId: string,
    limit: number,
  ): Promise<UnhandledMessage[]> {
    const m = messagingMessages;
    return this.database.db
      .select({
        ...getTableColumns(m),
        ageMs: sql<number>`extract(epoch from (now() - ${m.createdAt})) * 1000`.mapWith(Number),
        answered: sql<boolean>`EXISTS (SELECT 1 FROM messaging_messages r WHERE r.reply_to_id = ${m.id} AND r.purpose = 'reply')`,
      })
      .from(m)
      .where(and(inConversation(organizationId, conversationId), isUnhandledInbound))
      .orderBy(asc(m.createdAt), asc(m.id))
      .limit(limit);
  }

  /** True while an incoming message of the conversation waits for its reply worker. */
  async hasUnhandled(organizationId: string, conversationId: string): Promise<boolean> {
    const [row] = await this.database.db
      .select({ id: messagingMessages.id })
      .from(messagingMessages)
      .where(and(inConversation(organizationId, conversationId), isUnhandledInbound))
      .limit(1);
    return row !== undefined;
  }

  /** The reply worker is done with these incoming messages (the sweeper leaves them alone). */
  async markHandled(organizationId: string, ids: string[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.database.db
      .update(messagingMessages)
      .set({ handledAt: at })
      .where(
        and(
          eq(messagingMessages.organizationId, organizationId),
          inArray(messagingMessages.id, ids),
          isNull(messagingMessages.handledAt),
        ),
      );
  }

  /**
   * The latest `limit` lines the customer and the agent saw, oldest first: what the customer
   * wrote up to `until` (that message included), and what of ours reached them, even after it
   * (a reply sent while the customer was still writing).
   */
  async history(
    organizationId: string,
    conversationId: string,
    until: Pick<MessagingMessageRow, 'id'>,
    limit: number,
  ): Promise<MessagingMessageRow[]> {
    const rows = await this.database.db
      .select()
      .from(messagingMessages)
      .where(
        and(
          inConversation(organizationId, conversationId),
          or(
            and(
              eq(messagingMessages.direction, 'inbound'),
              // Compared in the database: a JavaScript Date drops the microseconds.
              lte(
                messagingMessages.createdAt,
                sql`(SELECT m.created_at FROM messaging_messages m WHERE m.id = ${until.id})`,
              ),
            ),
            and(
              eq(messagingMessages.direction, 'outbound'),
              inArray(messagingMessages.status, SEEN_BY_CUSTOMER),
            ),
          ),
        ),
      )
      .orderBy(desc(messagingMessages.createdAt), desc(messagingMessages.id))
      .limit(limit);
    return rows.reverse();
  }

  /** The conversation's whole log, oldest first. */
  list(organizationId: string, conversationId: string): Promise<MessagingMessageRow[]> {
    return this.database.db
      .select()
      .from(messagingMessages)
      .where(inConversation(organizationId, conversationId))
      .orderBy(asc(messagingMessages.createdAt), asc(messagingMessages.id));
  }

  /** What an incoming message holds besides text, updated (a voice note's transcript). */
  async setContent(organizationId: string, id: string, content: InboundContent): Promise<void> {
    await this.database.db
      .update(messagingMessages)
      .set({ content })
      .where(inOrganization(organizationId, id));
  }

  /** Counts a send attempt; answers the count so far. */
  async countAttempt(organizationId: string, id: string): Promise<number> {
    const [row] = await this.database.db
      .update(messagingMessages)
      .set({ sendAttempts: sql`${messagingMessages.sendAttempts} + 1` })
      .where(inOrganization(organizationId, id))
      .returning({ attempts: messagingMessages.sendAttempts });
    return row?.attempts ?? 0;
  }

  /** The platform took it: its wamid, from now on statuses find the row by it. */
  async markSent(organizationId: string, id: string, platformMessageId: string, at: Date) {
    await this.database.db
      .update(messagingMessages)
      .set({
        status: 'sent',
        platformMessageId,
        platformAt: at,
        errorCode: null,
        errorMessage: null,
      })
      .where(and(inOrganization(organizationId, id), eq(messagingMessages.status, 'pending')));
  }

  /**
   * Pending: the latest error of an attempt to be retried. failed or not_sent: final.
   */
  async recordError(
    organizationId: string,
    id: string,
    status: Extract<MessageStatus, 'pending' | 'failed' | 'not_sent'>,
    error: MessageError,
  ): Promise<void> {
    await this.database.db
      .update(messagingMessages)
      .set({ status, errorCode: error.code, errorMessage: error.message })
      .where(and(inOrganization(organizationId, id), eq(messagingMessages.status, 'pending')));
  }

  /**
   * A delivery status of one of our messages, applied only if it moves the status up (failed
   * wins over all but a final status). Answers the message's conversation when it changed.
   */
  async applyStatus(
    organizationId: string,
    integrationId: string,
    platformMessageId: string,
    status: DeliveryStatus,
    error: MessageError | undefined,
  ): Promise<string | undefined> {
    const [row] = await this.database.db
      .update(messagingMessages)
      .set({
        status,
        ...(error ? { errorCode: error.code, errorMessage: error.message } : {}),
      })
      .where(
        and(
          eq(messagingMessages.organizationId, organizationId),
          eq(messagingMessages.integrationId, integrationId),
          eq(messagingMessages.platformMessageId, platformMessageId),
          eq(messagingMessages.direction, 'outbound'),
          sql`${rank(messagingMessages.status)} < ${rank(sql`${status}::text`)}`,
        ),
      )
      .returning({ conversationId: messagingMessages.conversationId });
    return row?.conversationId;
  }
}
