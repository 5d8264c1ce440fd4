import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { Database } from '../../database';
import { agents, type AgentRow } from './agents.schema';

/** Queries of voice agents. */
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
      .where(
        and(
          eq(agents.organizationId, organizationId),
          agentId === null ? eq(agents.isDefault, true) : eq(agents.id, agentId),
        ),
      )
      .limit(1);
    return row ?? null;
  }
}
