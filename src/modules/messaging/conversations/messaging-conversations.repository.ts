import { Injectable } from '@nestjs/common';
import { and, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { Database } from '../../../database';
import {
  messagingConversations,
  type MessagingConversationRow,
} from './messaging-conversations.schema';

/** An incoming message's customer: at least one of `userId` and `waId`. */
export interface CustomerMessage {
  integrationId: string;
  userId: string | undefined;
  waId: string | undefined;
  name: string | undefined;
  username: string | undefined;
  messageAt: Date;
}

const inOrganization = (organizationId: string, id: string) =>
  and(eq(messagingConversations.organizationId, organizationId), eq(messagingConversations.id, id));

/** Conversations of connected numbers; each query starts from the organization. */
@Injectable()
export class MessagingConversationsRepository {
  constructor(private readonly database: Database) {}

  /**
   * The customer's conversation with the number, created by their first message, and found
   * again by their business-scoped user id, else by their phone number (one without a user id
   * yet, when the message has one: a later message carrying both joins the conversation keyed
   * on the number). Ids the conversation lacks are added; the customer's message time moves the
   * 24-hour window forward only (a late redelivery never moves it back). The row stays locked
   * until the storing transaction commits.
   */
  async upsertForCustomer(
    organizationId: string,
    customer: CustomerMessage,
  ): Promise<{ conversation: MessagingConversationRow; created: boolean }> {
    // Found, else inserted; an insert that lost a race with another message of the same
    // customer (a unique key) finds theirs on the next turn.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const found = await this.updateExisting(organizationId, customer);
      if (found) return { conversation: found, created: false };
      const [created] = await this.database.db
        .insert(messagingConversations)
        .values({
          organizationId,
          integrationId: customer.integrationId,
          customerWaId: customer.waId ?? null,
          customerUserId: customer.userId ?? null,
          customerName: customer.name ?? null,
          customerUsername: customer.username ?? null,
          lastCustomerMessageAt: customer.messageAt,
        })
        .onConflictDoNothing()
        .returning();
      if (created) return { conversation: created, created: true };
    }
    throw new Error('Customer conversation neither found nor created');
  }

  private async updateExisting(
    organizationId: string,
    customer: CustomerMessage,
  ): Promise<MessagingConversationRow | undefined> {
    const t = messagingConversations;
    const { userId, waId } = customer;
    const byUserId = userId !== undefined ? eq(t.customerUserId, userId) : undefined;
    const byNumber =
      waId !== undefined
        ? and(eq(t.customerWaId, waId), userId !== undefined ? isNull(t.customerUserId) : undefined)
        : undefined;
    const match = this.database.db
      .select({ id: t.id })
      .from(t)
      .where(
        and(
          eq(t.organizationId, organizationId),
          eq(t.integrationId, customer.integrationId),
          or(byUserId, byNumber),
        ),
      )
      // The user id's own conversation before one found by the number; then the latest.
      .orderBy(...(byUserId ? [desc(byUserId)] : []), desc(t.lastMessageAt), desc(t.id))
      .limit(1);
    const [row] = await this.database.db
      .update(t)
      .set({
        lastCustomerMessageAt: sql`greatest(${t.lastCustomerMessageAt}, ${customer.messageAt.toISOString()}::timestamptz)`,
        lastMessageAt: sql`now()`,
        customerName: sql`coalesce(${customer.name ?? null}, ${t.customerName})`,
        customerUsername: sql`coalesce(${customer.username ?? null}, ${t.customerUsername})`,
        // Found by the number without a user id, or by the user id: neither key can clash.
        customerUserId: sql`coalesce(${t.customerUserId}, ${userId ?? null})`,
        // The latest number the platform shared is the one sends go to.
        customerWaId: sql`coalesce(${waId ?? null}, ${t.customerWaId})`,
      })
      .where(inArray(t.id, match))
      .returning();
    return row;
  }

  async findById(
    organizationId: string,
    id: string,
  ): Promise<MessagingConversationRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingConversations)
      .where(inOrganization(organizationId, id));
    return row;
  }

  /** Latest activity first. */
  async list(
    organizationId: string,
    page: number,
    limit: number,
  ): Promise<{ rows: MessagingConversationRow[]; total: number }> {
    const where = eq(messagingConversations.organizationId, organizationId);
    const [rows, [{ total }]] = await Promise.all([
      this.database.db
        .select()
        .from(messagingConversations)
        .where(where)
        .orderBy(desc(messagingConversations.lastMessageAt), desc(messagingConversations.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.database.db.select({ total: count() }).from(messagingConversations).where(where),
    ]);
    return { rows, total };
  }

  /** Flags (or clears) that only a template can reach the customer now. */
  async setNeedsTemplate(
    organizationId: string,
    id: string,
    needsTemplate: boolean,
  ): Promise<void> {
    await this.database.db
      .update(messagingConversations)
      .set({ needsTemplate, lastMessageAt: sql`now()` })
      .where(inOrganization(organizationId, id));
  }

  /** A message went out: the conversation moves up the list. */
  async touch(organizationId: string, id: string): Promise<void> {
    await this.database.db
      .update(messagingConversations)
      .set({ lastMessageAt: sql`now()` })
      .where(inOrganization(organizationId, id));
  }
}
