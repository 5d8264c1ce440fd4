import { Injectable } from '@nestjs/common';
import { and, arrayContains, asc, count, desc, eq, ilike, ne, type SQL, sql } from 'drizzle-orm';
import { escapeLike } from '../../common/page.query';
import { Database, lockUntilCommit } from '../../database';
import { agents, type AgentRow } from './agents.schema';

/** What a client may set on an agent; `isDefault` moves only through the default methods. */
export type AgentValues = Omit<
  typeof agents.$inferInsert,
  'id' | 'organizationId' | 'isDefault' | 'createdAt' | 'updatedAt'
>;

/** One agent, only within its organization. */
const inOrganization = (organizationId: string, id: string) =>
  and(eq(agents.organizationId, organizationId), eq(agents.id, id));

/**
 * The agent that speaks on a batch's calls (AgentsRepository.findSpeaking): the batch's own,
 * else the organization's default. The dialer's claim reads it with the numbers in one query.
 */
export const speakingAgent = (organizationId: string, agentId: string | null): SQL | undefined =>
  and(
    eq(agents.organizationId, organizationId),
    agentId === null ? eq(agents.isDefault, true) : eq(agents.id, agentId),
  );

/** Queries of voice agents; each one starts from the organization. */
@Injectable()
export class AgentsRepository {
  constructor(private readonly database: Database) {}

  /**
   * The agent that speaks on a batch's calls: the batch's own (`agentId`), else the
   * organization's default; null when there is none (the dialer then pauses with no_agent).
   */
  async findSpeaking(organizationId: string, agentId: string | null): Promise<AgentRow | null> {
    const [row] = await this.database.db
      .select()
      .from(agents)
      .where(speakingAgent(organizationId, agentId))
      .limit(1);
    return row ?? null;
  }

  async findById(organizationId: string, id: string): Promise<AgentRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(agents)
      .where(inOrganization(organizationId, id));
    return row;
  }

  /**
   * Inside a transaction: whether the agent exists, holding it (FOR KEY SHARE) until the commit
   * so that a batch can reference it without a concurrent delete slipping in between.
   */
  async holdForReference(organizationId: string, id: string): Promise<boolean> {
    this.assertInTransaction('holdForReference');
    const rows = await this.database.db
      .select({ id: agents.id })
      .from(agents)
      .where(inOrganization(organizationId, id))
      .for('key share');
    return rows.length > 0;
  }

  /** One page, newest first, of the agents whose name contains `search` (case-insensitive). */
  async list(
    organizationId: string,
    { page, limit, search }: { page: number; limit: number; search?: string },
  ): Promise<{ rows: AgentRow[]; total: number }> {
    const where = and(
      eq(agents.organizationId, organizationId),
      search ? ilike(agents.agentName, `%${escapeLike(search)}%`) : undefined,
    );
    const [rows, [{ total }]] = await Promise.all([
      this.database.db
        .select()
        .from(agents)
        .where(where)
        .orderBy(desc(agents.createdAt), desc(agents.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.database.db.select({ total: count() }).from(agents).where(where),
    ]);
    return { rows, total };
  }

  /**
   * Inside a transaction: serializes every change of the organization's default agent (create,
   * move, delete) until the commit, so two of them never both see "no default" or both move it.
   * The partial unique index agents_organization_default_key backs this up.
   */
  lockDefault(organizationId: string): Promise<void> {
    return lockUntilCommit(this.database, 'agents.default', organizationId);
  }

  async hasDefault(organizationId: string): Promise<boolean> {
    const rows = await this.database.db
      .select({ id: agents.id })
      .from(agents)
      .where(and(eq(agents.organizationId, organizationId), eq(agents.isDefault, true)));
    return rows.length > 0;
  }

  async create(
    organizationId: string,
    values: AgentValues & { isDefault: boolean },
  ): Promise<AgentRow> {
    const [row] = await this.database.db
      .insert(agents)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  /** Undefined when the agent is not in the organization. */
  async update(
    organizationId: string,
    id: string,
    changes: Partial<AgentValues>,
  ): Promise<AgentRow | undefined> {
    const [row] = await this.database.db
      .update(agents)
      .set(changes)
      .where(inOrganization(organizationId, id))
      .returning();
    return row;
  }

  /** Under lockDefault: the agent becomes the default, the previous default no longer is. */
  async makeDefault(organizationId: string, id: string): Promise<void> {
    // The old default first: the unique index admits one default at a time.
    await this.database.db
      .update(agents)
      .set({ isDefault: false })
      .where(
        and(
          eq(agents.organizationId, organizationId),
          eq(agents.isDefault, true),
          ne(agents.id, id),
        ),
      );
    await this.database.db
      .update(agents)
      .set({ isDefault: true })
      .where(inOrganization(organizationId, id));
  }

  /** The deleted agent, or undefined when it is not in the organization. */
  async delete(organizationId: string, id: string): Promise<AgentRow | undefined> {
    const [row] = await this.database.db
      .delete(agents)
      .where(inOrganization(organizationId, id))
      .returning();
    return row;
  }

  /** Removes a deleted knowledge base from every agent of the organization that used it. */
  async forgetKnowledgeBase(organizationId: string, knowledgeBaseId: string): Promise<void> {
    await this.database.db
      .update(agents)
      .set({ knowledgeBaseIds: sql`array_remove(${agents.knowledgeBaseIds}, ${knowledgeBaseId})` })
      .where(
        and(
          eq(agents.organizationId, organizationId),
          arrayContains(agents.knowledgeBaseIds, [knowledgeBaseId]),
        ),
      );
  }

  /** The organization's oldest agent, or undefined when none is left. */
  async findOldest(organizationId: string): Promise<AgentRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(agents)
      .where(eq(agents.organizationId, organizationId))
      .orderBy(asc(agents.createdAt), asc(agents.id))
      .limit(1);
    return row;
  }

  private assertInTransaction(method: string): void {
    if (!this.database.inTransaction) {
      throw new Error(`AgentsRepository.${method}() must run inside Database.transaction()`);
    }
  }
}
