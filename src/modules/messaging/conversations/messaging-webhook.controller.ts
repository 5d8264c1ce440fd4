import {
  Controller,
  Get,
  Headers,
  HttpCode,
  Post,
  Query,
  type RawBodyRequest,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../auth/access';
import { ApiErrors } from '../../../common/api-errors.decorator';
import { ApiEnvelope } from '../../../common/envelope.decorators';
import { MessagingWebhookService } from './messaging-webhook.service';

@ApiTags('Messaging platform events')
@Controller('api/messaging/webhook')
@Public()
export class MessagingWebhookController {
  constructor(private readonly webhook: MessagingWebhookService) {}

  @Get()
  @ApiOperation({
    summary: 'Platform: verify the webhook URL',
    description:
      'Called by the messaging platform when the webhook URL is set. With hub.mode=subscribe ' +
      'and hub.verify_token equal to MESSAGING_VERIFY_TOKEN, answers hub.challenge as plain ' +
      'text; otherwise 403 (always, while MESSAGING_VERIFY_TOKEN is unset). 400: the token ' +
      'matched but hub.challenge is missing or not a short token.',
  })
  @ApiQuery({ name: 'hub.mode', required: true, example: 'subscribe' })
  @ApiQuery({ name: 'hub.verify_token', required: true })
  @ApiQuery({ name: 'hub.challenge', required: true, example: '1158201444' })
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'The challenge, echoed',
    content: { 'text/plain': { schema: { type: 'string', example: '1158201444' } } },
  })
  @ApiErrors(400, 403)
  verifyMessagingWebhook(
    @Query('hub.mode') mode: unknown,
    @Query('hub.verify_token') token: unknown,
    @Query('hub.challenge') challenge: unknown,
    @Res({ passthrough: true }) response: Response,
  ): string {
    const echo = this.webhook.verify(mode, token, challenge);
    // Only the success is plain text: refusals keep the JSON error envelope.
    response.type('text/plain');
    return echo;
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Platform: incoming messages and delivery statuses',
    description:
      'Called by the messaging platform. X-Hub-Signature-256 must be `sha256=` and the hex ' +
      'HMAC-SHA256 of the raw body with MESSAGING_APP_SECRET; missing or wrong (or the secret ' +
      'unset) answers 401 and stores nothing. A verified delivery is stored and answered 200 at ' +
      'once; a queued job then routes each message and status by its business number ' +
      '(unknown numbers are ignored), stores each message once by its id (redeliveries change ' +
      'nothing) and has the number’s agent answer it; statuses only move up (sent < delivered ' +
      '< read; failed wins) and a failure 131026 marks the customer’s number undeliverable. ' +
      'One reply per customer turn: messages that come within MESSAGING_REPLY_PAUSE_MS (1.5 s) ' +
      'of each other are answered together by one reply whose model request has seen them all; ' +
      'one worker answers a conversation at a time, so a message sent while a reply is being ' +
      'written gets a follow-up reply that has seen it. The customer’s latest message is marked ' +
      'read, with the typing indicator, while the model writes.',
  })
  @ApiHeader({ name: 'X-Hub-Signature-256', required: true, example: 'sha256=9f86d081…' })
  @ApiBody({
    description: 'The platform’s event: { object: "whatsapp_business_account", entry: [...] }',
    schema: { type: 'object', additionalProperties: true },
  })
  @ApiEnvelope({ message: 'Event received' })
  @ApiErrors(400, 401)
  async receiveMessagingEvent(
    @Req() request: RawBodyRequest<Request>,
    @Headers('x-hub-signature-256') signature: unknown,
  ): Promise<void> {
    await this.webhook.accept(request.rawBody, signature, request.body);
  }
}
