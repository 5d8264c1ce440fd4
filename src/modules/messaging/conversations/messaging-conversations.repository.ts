import { Injectable } from '@nestjs/common';
import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { Database } from '../../../database';
import {
  messagingConversations,
  type MessagingConversationRow,
} from './messaging-conversations.schema';

const inOrganization = (organizationId: string, id: string) =>
  and(eq(messagingConversations.organizationId, organizationId), eq(messagingConversations.id, id));

/** Conversations of connected numbers; each query starts from the organization. */
@Injectable()
export class MessagingConversationsRepository {
  constructor(private readonly database: Database) {}

  /**
   * The customer's conversation with the number, created by their first message. Their message
   * time moves the 24-hour window forward only (a late redelivery never moves it back).
   */
  async upsertForCustomer(
    organizationId: string,
    customer: {
      integrationId: string;
      waId: string;
      name: string | undefined;
      messageAt: Date;
    },
  ): Promise<{ conversation: MessagingConversationRow; created: boolean }> {
    // One statement (insert or update, xmax = 0 telling which): it runs for every incoming
    // message, and its row lock is held until the storing transaction commits.
    const t = messagingConversations;
    const [row] = await this.database.db
      .insert(t)
      .values({
        organizationId,
        integrationId: customer.integrationId,
        customerWaId: customer.waId,
        customerName: customer.name ?? null,
        lastCustomerMessageAt: customer.messageAt,
      })
      .onConflictDoUpdate({
        target: [t.integrationId, t.customerWaId],
        set: {
          lastCustomerMessageAt: sql`greatest(${t.lastCustomerMessageAt}, excluded.last_customer_message_at)`,
          lastMessageAt: sql`now()`,
          customerName: sql`coalesce(excluded.customer_name, ${t.customerName})`,
        },
        setWhere: eq(t.organizationId, organizationId),
      })
      .returning({ ...getTableColumns(t), created: sql<boolean>`(xmax = 0)` });
    const { created, ...conversation } = row;
    return { conversation, created };
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
