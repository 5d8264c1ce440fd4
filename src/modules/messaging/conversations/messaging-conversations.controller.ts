import { Body, Controller, Get, Headers, Param, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../../auth/access';
import { ApiErrors } from '../../../common/api-errors.decorator';
import { ApiEnvelope } from '../../../common/envelope.decorators';
import { PageQuery } from '../../../common/page.query';
import { ParseObjectIdPipe } from '../../../common/parse-object-id.pipe';
import {
  MessagingConversationListDto,
  MessagingMessageDto,
  SendConversationTemplateDto,
} from './dto/messaging-conversation.dto';
import { MessagingConversationsService } from './messaging-conversations.service';

const CONVERSATION_ID = { name: 'id', description: 'Conversation id (24 hex characters)' };

@ApiTags('Messaging')
@Controller('api/messaging/conversations')
export class MessagingConversationsController {
  constructor(private readonly conversations: MessagingConversationsService) {}

  @Get()
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'List the conversations of the messaging agents',
    description:
      'One conversation per customer and business number, latest activity first. 400: page ' +
      'or limit out of range.',
  })
  @ApiEnvelope({ message: 'Conversations fetched', type: MessagingConversationListDto })
  @ApiErrors(400)
  listMessagingConversations(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PageQuery,
  ): Promise<MessagingConversationListDto> {
    return this.conversations.list(principal.organizationId, query);
  }

  @Get(':id/messages')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Read a conversation',
    description:
      'Every message, oldest first: what the customer wrote, what the agent sent (welcome, ' +
      'replies, templates) with its delivery status, and entries for answers that could not ' +
      'be sent (status not_sent: no model configured, a model error, or outside the 24-hour ' +
      'window), each with its error. 400: malformed id; 404: no such conversation here.',
  })
  @ApiParam(CONVERSATION_ID)
  @ApiEnvelope({ message: 'Messages fetched', type: [MessagingMessageDto] })
  @ApiErrors(400, 404)
  listMessagingConversationMessages(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
  ): Promise<MessagingMessageDto[]> {
    return this.conversations.messagesOf(principal.organizationId, id);
  }

  @Post(':id/template')
  @Authenticated({ permission: 'messaging' })
  @ApiOperation({
    summary: 'Send a template to re-open a conversation',
    description:
      'Sends an APPROVED template of the conversation’s number with its variables filled in ' +
      '(the only message the platform takes more than 24 hours after the customer last ' +
      'wrote) and clears needsTemplate; when the customer answers, the agent takes over again. ' +
      'Answers the stored message: sent, failed (the platform refused it, see error) or ' +
      'pending (the platform is unavailable; retried with backoff). 400: invalid body, or ' +
      'variables that do not match the template’s (each named); 404: no such conversation, ' +
      'or no template of that name and language for the number; 409: the template is not ' +
      'APPROVED, or the templates were never synchronised and the platform refused the token; ' +
      '502: never synchronised and the platform is unavailable.',
  })
  @ApiParam(CONVERSATION_ID)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Retry-safe send: the same key and body within 24 hours answers the message the first ' +
      'request stored, as it stands now, and sends nothing; another body answers 422, and 409 ' +
      'while the first is still running. Without it, each request sends a template.',
  })
  @ApiEnvelope({ status: 201, message: 'Template sent', type: MessagingMessageDto })
  @ApiErrors(400, 404, 409, 422, 502)
  sendMessagingConversationTemplate(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Body() dto: SendConversationTemplateDto,
    @Headers('Idempotency-Key') key?: string,
  ): Promise<MessagingMessageDto> {
    return this.conversations.sendTemplate(principal.organizationId, id, dto, key);
  }
}
