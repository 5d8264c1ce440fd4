import { Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { Database } from '../../database';
import { videoAgents, type VideoAgentRow } from './video-agents.schema';

export type VideoAgentValues = Omit<
  typeof videoAgents.$inferInsert,
  'id' | 'organizationId' | 'createdAt' | 'updatedAt'
>;

/** One video agent, only within its organization. */
const inOrganization = (organizationId: string, id: string) =>
  and(eq(videoAgents.organizationId, organizationId), eq(videoAgents.id, id));

/** Queries of video agents; each one starts from the organization. */
@Injectable()
export class VideoAgentsRepository {
  constructor(private readonly database: Database) {}

  async create(organizationId: string, values: VideoAgentValues): Promise<VideoAgentRow> {
    const [row] = await this.database.db
      .insert(videoAgents)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  async findById(organizationId: string, id: string): Promise<VideoAgentRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(videoAgents)
      .where(inOrganization(organizationId, id));
    return row;
  }

  /** Whether the agent was there (in this organization) to delete. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const rows = await this.database.db
      .delete(videoAgents)
      .where(inOrganization(organizationId, id))
      .returning({ id: videoAgents.id });
    return rows.length > 0;
  }
}
