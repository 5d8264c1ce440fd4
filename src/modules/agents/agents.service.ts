import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { ValidationFailedException } from '../../common/validation';
import { Database } from '../../database';
import { KnowledgeBasesRepository } from '../knowledge-bases/knowledge-bases.repository';
import { type AgentValues, AgentsRepository } from './agents.repository';
import type { AgentRow } from './agents.schema';
import { docsPage } from '../../common/docs-page.dto';
import type { AgentDto, AgentListDto } from './dto/agent.dto';
import type { ListAgentsQuery } from './dto/agent-queries';
import type { CreateAgentDto, UpdateAgentDto } from './dto/write-agent.dto';

const NOT_FOUND = 'Agent not found';

/**
 * Voice agents of an organization. Exactly one of them is its default while it has any: the
 * first agent becomes it, `isDefault: true` moves it, and deleting it promotes the oldest agent
 * left. Every such change runs under AgentsRepository.lockDefault.
 */
@Injectable()
export class AgentsService {
  constructor(
    private readonly database: Database,
    private readonly agents: AgentsRepository,
    private readonly knowledgeBases: KnowledgeBasesRepository,
  ) {}

  create(organizationId: string, dto: CreateAgentDto): Promise<AgentDto> {
    return this.database.transaction(async () => {
      await this.agents.lockDefault(organizationId);
      await this.assertKnowledgeBases(organizationId, dto.knowledgeBaseIds);
      const hasDefault = await this.agents.hasDefault(organizationId);
      const row = await this.agents.create(organizationId, {
        ...agentValues(dto),
        agentName: dto.agent_name,
        isDefault: !hasDefault,
      });
      if (hasDefault && dto.isDefault === true) {
        await this.agents.makeDefault(organizationId, row.id);
        return toAgentDto({ ...row, isDefault: true });
      }
      return toAgentDto(row);
    });
  }

  async list(organizationId: string, query: ListAgentsQuery): Promise<AgentListDto> {
    const { rows, total } = await this.agents.list(organizationId, query);
    return docsPage(rows.map(toAgentDto), total, query.page, query.limit);
  }

  async get(organizationId: string, id: string): Promise<AgentDto> {
    const row = await this.agents.findById(organizationId, id);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toAgentDto(row);
  }

  /** Only the fields sent change; the default moves here only (see AgentsService). */
  update(organizationId: string, id: string, dto: UpdateAgentDto): Promise<AgentDto> {
    return this.database.transaction(async () => {
      if (dto.isDefault !== undefined) await this.agents.lockDefault(organizationId);
      const current = await this.agents.findById(organizationId, id);
      if (!current) throw new NotFoundException(NOT_FOUND);
      await this.assertKnowledgeBases(organizationId, dto.knowledgeBaseIds);
      if (dto.isDefault === false && current.isDefault) {
        throw new ConflictException(
          'This agent is the default: make another agent the default (isDefault: true) instead',
        );
      }
      const becomesDefault = dto.isDefault === true && !current.isDefault;
      if (becomesDefault) await this.agents.makeDefault(organizationId, id);
      const changes = agentValues(dto);
      const row =
        Object.keys(changes).length > 0
          ? await this.agents.update(organizationId, id, changes)
          : becomesDefault
            ? await this.agents.findById(organizationId, id)
            : current;
      if (!row) throw new NotFoundException(NOT_FOUND);
      return toAgentDto(row);
    });
  }

  /**
   * 400 naming knowledgeBaseIds unless every id is a knowledge base of the organization (another
   * organization's base is unknown here). Inside the write's transaction: the bases found stay
   * locked until it commits (KnowledgeBasesRepository.lockExistingIds).
   */
  private async assertKnowledgeBases(
    organizationId: string,
    ids: string[] | undefined,
  ): Promise<void> {
    if (!ids || ids.length === 0) return;
    const found = new Set(await this.knowledgeBases.lockExistingIds(organizationId, ids));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      throw new ValidationFailedException([
        {
          field: 'knowledgeBaseIds',
          message: `knowledgeBaseIds must be knowledge bases of the organization; unknown: ${unknown.join(', ')}`,
        },
      ]);
    }
  }

  /**
   * Batches that named the agent fall back to the default (their agent_id becomes null). When
   * the default goes, the oldest agent left becomes the default.
   */
  remove(organizationId: string, id: string): Promise<void> {
    return this.database.transaction(async () => {
      await this.agents.lockDefault(organizationId);
      const deleted = await this.agents.delete(organizationId, id);
      if (!deleted) throw new NotFoundException(NOT_FOUND);
      if (!deleted.isDefault) return;
      const oldest = await this.agents.findOldest(organizationId);
      if (oldest) await this.agents.makeDefault(organizationId, oldest.id);
    });
  }
}

/** The columns a create or update sets: each field sent, none of those left out. */
function agentValues(dto: UpdateAgentDto): Partial<AgentValues> {
  const values: Partial<AgentValues> = {
    agentName: dto.agent_name,
    gender: dto.gender,
    voice: dto.voice,
    conversationType: dto.conversationType,
    prompt: dto.prompt,
    greeting: dto.greeting,
    language: dto.language,
    knowledgeBaseIds: dto.knowledgeBaseIds,
    voicemailMessage: dto.voicemailMessage,
    transferNumber: dto.transferNumber,
    transferMode: dto.transferMode,
    maxCallSeconds: dto.maxCallSeconds,
    privateDigits: dto.privateDigits,
    interruptible: dto.interruptible,
    firstSpeaker: dto.firstSpeaker,
    calleeFirstWaitMs: dto.calleeFirstWaitMs,
    onIvr: dto.onIvr,
    onCallScreening: dto.onCallScreening,
    analysisFields: dto.analysisFields?.map(({ name, type, description, options }) =>
      options === undefined ? { name, type, description } : { name, type, description, options },
    ),
  };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

function toAgentDto(row: AgentRow): AgentDto {
  return {
    _id: row.id,
    agent_name: row.agentName,
    gender: row.gender,
    voice: row.voice,
    conversationType: row.conversationType as AgentDto['conversationType'],
    prompt: row.prompt,
    greeting: row.greeting,
    language: row.language,
    knowledgeBaseIds: row.knowledgeBaseIds,
    voicemailMessage: row.voicemailMessage,
    transferNumber: row.transferNumber,
    transferMode: row.transferMode,
    maxCallSeconds: row.maxCallSeconds,
    privateDigits: row.privateDigits,
    interruptible: row.interruptible,
    firstSpeaker: row.firstSpeaker,
    calleeFirstWaitMs: row.calleeFirstWaitMs,
    onIvr: row.onIvr,
    onCallScreening: row.onCallScreening,
    analysisFields: row.analysisFields,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
