import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { Database, isUniqueViolation } from '../../database';
import { KnowledgeBasesRepository } from '../knowledge-bases/knowledge-bases.repository';
import type {
  CreatedMessagingAgentDto,
  CreateMessagingAgentDto,
  MessagingAgentDto,
  UpdateMessagingAgentDto,
} from './dto/messaging-agent.dto';
import {
  type MessagingAgentValues,
  MessagingAgentsRepository,
} from './messaging-agents.repository';
import { MessagingIntegrationsService } from './messaging-integrations.service';
import type { MessagingAgentRow } from './messaging.schema';

const NOT_FOUND = 'Messaging agent not found';
const DUPLICATE = 'An agent already exists for this business number';

/** The AI agents that answer connected business numbers: at most one per number. */
@Injectable()
export class MessagingAgentsService {
  constructor(
    private readonly database: Database,
    private readonly agents: MessagingAgentsRepository,
    private readonly integrations: MessagingIntegrationsService,
    private readonly knowledgeBases: KnowledgeBasesRepository,
  ) {}

  async create(
    organizationId: string,
    dto: CreateMessagingAgentDto,
  ): Promise<CreatedMessagingAgentDto> {
    const row = await this.saving(async () => {
      const integration = await this.integrations.find(organizationId, dto.phoneNumberId);
      await this.assertKnowledgeBases(organizationId, dto.knowledgeBase ?? []);
      return this.agents.create(organizationId, {
        integrationId: integration.id,
        phoneNumberId: integration.phoneNumberId,
        agentName: dto.agentName.trim(),
        systemPrompt: dto.systemPrompt,
        welcomeMessage: dto.welcomeMessage ?? null,
        knowledgeBaseIds: [...new Set(dto.knowledgeBase ?? [])],
        model: dto.model ?? null,
        temperature: dto.temperature ?? null,
      });
    });
    return {
      _id: row.id,
      agentName: row.agentName,
      phoneNumberId: row.phoneNumberId,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async get(organizationId: string, id: string): Promise<MessagingAgentDto> {
    const row = await this.agents.findById(organizationId, id);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toAgentDto(row);
  }

  /** Only the fields sent change. */
  async update(
    organizationId: string,
    id: string,
    dto: UpdateMessagingAgentDto,
  ): Promise<MessagingAgentDto> {
    const row = await this.saving(async () => {
      if (!(await this.agents.findById(organizationId, id))) throw new NotFoundException(NOT_FOUND);
      const changes: Partial<MessagingAgentValues> = {};
      if (dto.phoneNumberId !== undefined) {
        const integration = await this.integrations.find(organizationId, dto.phoneNumberId);
        changes.integrationId = integration.id;
        changes.phoneNumberId = integration.phoneNumberId;
      }
      if (dto.knowledgeBase !== undefined) {
        await this.assertKnowledgeBases(organizationId, dto.knowledgeBase);
        changes.knowledgeBaseIds = [...new Set(dto.knowledgeBase)];
      }
      if (dto.agentName !== undefined) changes.agentName = dto.agentName.trim();
      if (dto.systemPrompt !== undefined) changes.systemPrompt = dto.systemPrompt;
      if (dto.welcomeMessage !== undefined) changes.welcomeMessage = dto.welcomeMessage;
      if (dto.model !== undefined) changes.model = dto.model;
      if (dto.temperature !== undefined) changes.temperature = dto.temperature;
      const updated = await this.agents.update(organizationId, id, changes);
      if (!updated) throw new NotFoundException(NOT_FOUND);
      return updated;
    });
    return toAgentDto(row);
  }

  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.agents.delete(organizationId, id))) throw new NotFoundException(NOT_FOUND);
  }

  /** In one transaction (knowledge bases held until it commits); a second agent is 409. */
  private async saving(work: () => Promise<MessagingAgentRow>): Promise<MessagingAgentRow> {
    try {
      return await this.database.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(DUPLICATE);
      throw error;
    }
  }

  private async assertKnowledgeBases(organizationId: string, ids: string[]): Promise<void> {
    const found = new Set(await this.knowledgeBases.lockExistingIds(organizationId, ids));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length > 0)
      throw new NotFoundException(`Knowledge base not found: ${unknown.join(', ')}`);
  }
}

function toAgentDto(row: MessagingAgentRow): MessagingAgentDto {
  return {
    _id: row.id,
    agentName: row.agentName,
    phoneNumberId: row.phoneNumberId,
    status: row.status,
    systemPrompt: row.systemPrompt,
    welcomeMessage: row.welcomeMessage,
    knowledgeBase: row.knowledgeBaseIds,
    model: row.model,
    temperature: row.temperature,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
