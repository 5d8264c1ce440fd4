import { Injectable } from '@nestjs/common';
import { and, arrayContains, eq, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { messagingAgents, type MessagingAgentRow } from './messaging.schema';

export type MessagingAgentValues = Omit<
  typeof messagingAgents.$inferInsert,
  'id' | 'organizationId' | 'status' | 'createdAt' | 'updatedAt'
>;

const inOrganization = (organizationId: string, id: string) =>
  and(eq(messagingAgents.organizationId, organizationId), eq(messagingAgents.id, id));

/** Queries of messaging agents; each one starts from the organization. */
@Injectable()
export class MessagingAgentsRepository {
  constructor(private readonly database: Database) {}

  async create(organizationId: string, values: MessagingAgentValues): Promise<MessagingAgentRow> {
    const [row] = await this.database.db
      .insert(messagingAgents)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  async findById(organizationId: string, id: string): Promise<MessagingAgentRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingAgents)
      .where(inOrganization(organizationId, id));
    return row;
  }

  /** The agent that answers a connected number, if it has one. */
  async findByIntegration(
    organizationId: string,
    integrationId: string,
  ): Promise<MessagingAgentRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingAgents)
      .where(
        and(
          eq(messagingAgents.organizationId, organizationId),
          eq(messagingAgents.integrationId, integrationId),
        ),
      );
    return row;
  }

  async update(
    organizationId: string,
    id: string,
    changes: Partial<MessagingAgentValues>,
  ): Promise<MessagingAgentRow | undefined> {
    const [row] = await this.database.db
      .update(messagingAgents)
      .set(changes)
      .where(inOrganization(organizationId, id))
      .returning();
    return row;
  }

  /** Whether the agent was there (in this organization) to delete. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.database.db
      .delete(messagingAgents)
      .where(inOrganization(organizationId, id))
      .returning({ id: messagingAgents.id });
    return rows.length > 0;
  }

  /** Removes a deleted knowledge base from every messaging agent of the organization. */
  async forgetKnowledgeBase(organizationId: string, knowledgeBaseId: string): Promise<void> {
    await this.database.db
      .update(messagingAgents)
      .set({
        knowledgeBaseIds: sql`array_remove(${messagingAgents.knowledgeBaseIds}, ${knowledgeBaseId})`,
      })
      .where(
        and(
          eq(messagingAgents.organizationId, organizationId),
          arrayContains(messagingAgents.knowledgeBaseIds, [knowledgeBaseId]),
        ),
      );
  }
}
