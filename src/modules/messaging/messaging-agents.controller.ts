import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import {
  CreatedMessagingAgentDto,
  CreateMessagingAgentDto,
  MessagingAgentDto,
  UpdateMessagingAgentDto,
} from './dto/messaging-agent.dto';
import { MessagingAgentsService } from './messaging-agents.service';

const AGENT_ID = { name: 'agentId', description: 'Messaging agent id (24 hex characters)' };

@ApiTags('Messaging')
@Controller('api/messaging')
export class MessagingAgentsController {
  constructor(private readonly agents: MessagingAgentsService) {}

  @Post('save-messaging-agent')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Create the AI agent of a business number',
    description:
      '400: missing or invalid fields; 404: the number is not connected, or a knowledge base ' +
      'is not one of the organization; 409: the number already has an agent (one per number).',
  })
  @ApiEnvelope({ status: 201, message: 'Messaging agent created', type: CreatedMessagingAgentDto })
  @ApiErrors(400, 404, 409)
  createMessagingAgent(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateMessagingAgentDto,
  ): Promise<CreatedMessagingAgentDto> {
    return this.agents.create(principal.organizationId, dto);
  }

  @Get('get-messaging-agent/:agentId')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({ summary: 'Get a messaging agent', description: '400: malformed id; 404.' })
  @ApiParam(AGENT_ID)
  @ApiEnvelope({ message: 'Messaging agent fetched', type: MessagingAgentDto })
  @ApiErrors(400, 404)
  getMessagingAgent(
    @CurrentPrincipal() principal: Principal,
    @Param('agentId', ParseObjectIdPipe) agentId: string,
  ): Promise<MessagingAgentDto> {
    return this.agents.get(principal.organizationId, agentId);
  }

  @Put('update-messaging-agent/:agentId')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Update a messaging agent',
    description:
      'Only the fields sent change. 400: malformed id or invalid fields; 404: unknown agent, ' +
      'number or knowledge base; 409: the new number already has an agent.',
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope({ message: 'Messaging agent updated', type: MessagingAgentDto })
  @ApiErrors(400, 404, 409)
  updateMessagingAgent(
    @CurrentPrincipal() principal: Principal,
    @Param('agentId', ParseObjectIdPipe) agentId: string,
    @Body() dto: UpdateMessagingAgentDto,
  ): Promise<MessagingAgentDto> {
    return this.agents.update(principal.organizationId, agentId, dto);
  }

  @Delete('delete-messaging-agent/:agentId')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Delete a messaging agent for good',
    description: 'Answers status, code and message only.',
  })
  @ApiParam(AGENT_ID)
  @ApiEnvelope({ message: 'Messaging agent deleted' })
  @ApiDeleteErrors()
  deleteMessagingAgent(
    @CurrentPrincipal() principal: Principal,
    @Param('agentId', ParseObjectIdPipe) agentId: string,
  ): Promise<void> {
    return this.agents.remove(principal.organizationId, agentId);
  }
}
