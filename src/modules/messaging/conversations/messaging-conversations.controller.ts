import {
  Body,
  Controller,
  Get,
  Header,
  Headers,
  Param,
  Post,
  Query,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../../auth/access';
import { ApiErrors } from '../../../common/api-errors.decorator';
import { ApiEnvelope } from '../../../common/envelope.decorators';
import { PageQuery } from '../../../common/page.query';
import { ErrorEnvelopeDto } from '../../../common/error-envelope.dto';
import { ParseObjectIdPipe } from '../../../common/parse-object-id.pipe';
import { ConversationMediaService } from './conversation-media.service';
import {
  MessagingConversationListDto,
  MessagingMessageDto,
  SendConversationTemplateDto,
} from './dto/messaging-conversation.dto';
import { MessagingConversationsService } from './messaging-conversations.service';

const CONVERSATION_ID = { name: 'id', description: 'Conversation id (24 hex characters)' };
const MESSAGE_ID = { name: 'messageId', description: 'Message id (24 hex characters)' };

@ApiTags('Messaging')
@Controller('api/messaging/conversations')
export class MessagingConversationsController {
  constructor(
    private readonly conversations: MessagingConversationsService,
    private readonly media: ConversationMediaService,
  ) {}

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
      'Every message, oldest first: what the customer sent, what the agent sent (welcome, ' +
      'replies, templates) with its delivery status, and entries for answers that could not ' +
      'be sent (status not_sent: no model configured, a model error, or outside the 24-hour ' +
      'window), each with its error. What the customer sent besides text is in `media` ' +
      '(photos, voice notes with their transcript, videos, documents, stickers: download them ' +
      'at `media.downloadPath`), `choice` (a tapped template quick-reply button, reply button ' +
      'or list row, with its payload), `location`, `contacts` and `reaction` (stored, never ' +
      'answered). 400: malformed id; 404: no such conversation here.',
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

  @Get(':id/messages/:messageId/media')
  @Authenticated({ permission: 'messaging' })
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Content-Security-Policy', "sandbox; default-src 'none'")
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({
    summary: 'Download the media of a customer message',
    description:
      'The photo, voice note, audio, video, document or sticker of an incoming message, ' +
      'fetched from the platform through the number that received it (its media lookup, then ' +
      'the short-lived URL it gives) and streamed as an attachment with its media type; ' +
      'nothing is stored here. 400: malformed id; 404: no such conversation, message, or no ' +
      'media in it; 409: the platform refused the number’s access token (connect the number ' +
      'again); 410: the platform no longer holds the media (it keeps incoming media for a ' +
      'limited time); 502: the platform is down, failing or timed out.',
  })
  @ApiParam(CONVERSATION_ID)
  @ApiParam(MESSAGE_ID)
  @ApiOkResponse({
    description: 'The file’s bytes, with the media type the platform gave',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors(400, 404, 409, 502)
  @ApiResponse({
    status: 410,
    description: 'The platform no longer holds the media',
    type: ErrorEnvelopeDto,
  })
  downloadMessagingMessageMedia(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ParseObjectIdPipe) id: string,
    @Param('messageId', ParseObjectIdPipe) messageId: string,
  ): Promise<StreamableFile> {
    return this.media.download(principal.organizationId, id, messageId);
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
