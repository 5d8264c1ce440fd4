import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { AgentsService } from './agents.service';
import { AgentDto, AgentListDto } from './dto/agent.dto';
import { ListAgentsQuery } from './dto/agent-queries';
import { CreateAgentDto, UpdateAgentDto } from './dto/write-agent.dto';

const DEFAULT_AGENT =
  'Each organization has one default agent while it has any: its first agent, until another ' +
  'is made default with `isDefault: true`. A batch created without `agentId` uses the default; ' +
  'so does a batch whose agent was deleted (its agentId becomes null).';

const AGENT_ID = { name: 'id', description: 'Voice agent id (24 hex characters)' };

@ApiTags('Voice agents')
@Controller('api/agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @Authenticated({ permission: 'agents' })
  @ApiOperation({
    summary: 'List voice agents',
    description:
      'Newest first. page defaults to 1, limit to 10 (at most 100); search keeps the agents ' +
      'whose name contains it. 400: invalid query.',
  })
  @ApiEnvelope({ message: 'Agents fetched', type: AgentListDto })
  @ApiErrors(400)
  listAgents(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListAgentsQuery,
  ): Promise<AgentListDto> {
    return this.agents.list(principal.organizationId, query);
  }

  @Post()
  @Authenticated({ permission: 'agents' })
  @ApiOperation({
    summary: 'Create a voice agent',
    description: `Only agent_name is required; the other fields take the defaults shown. ${DEFAULT_AGENT} 400: invalid fields.`,
  })
  @ApiEnvelope({ status: 201, message: 'Agent created', type: AgentDto })
  @ApiErrors(400)
  createAgent(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateAgentDto,
  ): Promise<AgentDto> {
    return this.agents.create(principal.organizationId, dto);
  }

  @Get(':id')
  @Authenticated({ permission: 'agents' })
  @ApiOperation({ summary: 'Get one voice agent' })
  @ApiParam(AGENT_ID)
  @ApiEnvelope({ message: 'Agent fetched', type: AgentDto })
  @ApiErrors(400, 404)
  getAgent(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<AgentDto> {
    return this.agents.get(principal.organizationId, id);
  }

  @Patch(':id')
  @Authenticated({ permission: 'agents' })
  @ApiOperation({
    summary: 'Update a voice agent',
    description:
      'Only the fields sent change. null clears gender, voice, greeting, voicemailMessage and ' +
      'transferNumber, and answers 400 for any other field. ' +
      `${DEFAULT_AGENT} 409: isDefault false on the default agent.`,
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope({ message: 'Agent updated', type: AgentDto })
  @ApiErrors(400, 404, 409)
  updateAgent(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: UpdateAgentDto,
  ): Promise<AgentDto> {
    return this.agents.update(principal.organizationId, id, dto);
  }

  @Delete(':id')
  @Authenticated({ permission: 'agents' })
  @ApiOperation({
    summary: 'Delete a voice agent for good',
    description:
      'Batches that named it fall back to the organization’s default agent (their agentId ' +
      'becomes null); a batch left with no agent at all is paused with statusReason no_agent ' +
      'when its next call is due. Deleting the default makes the oldest remaining agent the ' +
      'default.',
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope({ message: 'Agent deleted' })
  @ApiDeleteErrors()
  deleteAgent(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<void> {
    return this.agents.remove(principal.organizationId, id);
  }
}
