import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiDeleteErrors, ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { PageQuery } from '../../common/page.query';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import {
  CreatedWebhookDto,
  RotatedWebhookSecretDto,
  UpdatedWebhookDto,
  WebhookDto,
  WebhookListDto,
} from './dto/webhook.dto';
import {
  CreateWebhookDto,
  RotateWebhookSecretDto,
  UpdateWebhookDto,
} from './dto/write-webhook.dto';
import { WEBHOOK_EVENT_MODELS } from './dto/webhook-event-payloads.dto';
import { WebhooksService } from './webhooks.service';

const SIGNING =
  'Deliveries follow Standard Webhooks: headers `webhook-id` (stable across retries), ' +
  '`webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of ' +
  '"id.timestamp.body">` with the secret after `whsec_` base64-decoded; several space-separated ' +
  'during a rotation). Verify with any Standard Webhooks library or @app/webhooks.';

@ApiTags('Webhooks')
// The delivered payloads: documented here so readers of `events` find their schemas.
@ApiExtraModels(...WEBHOOK_EVENT_MODELS)
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: 'Subscribe an HTTPS endpoint to call events',
    description:
      'Without `secret` one is generated. The secret is in this response only: it is stored ' +
      `sealed and never returned again. ${SIGNING} 400: invalid fields, unknown event types, a ` +
      'malformed secret. 422: the URL is not an allowed target (see `url`).',
  })
  @ApiEnvelope({ status: 201, message: 'Webhook created', type: CreatedWebhookDto })
  @ApiErrors(400, 422)
  createWebhook(
    @CurrentPrincipal() principal: Principal,
    @Body() dto: CreateWebhookDto,
  ): Promise<CreatedWebhookDto> {
    return this.webhooks.create(principal.organizationId, dto);
  }

  @Get()
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: 'List the webhooks',
    description: 'Newest first. page defaults to 1, limit to 10 (at most 100). Never the secrets.',
  })
  @ApiEnvelope({ message: 'Webhooks fetched', type: WebhookListDto })
  @ApiErrors(400)
  listWebhooks(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PageQuery,
  ): Promise<WebhookListDto> {
    return this.webhooks.list(principal.organizationId, query);
  }

  @Get(':webhookId')
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({ summary: 'Get one webhook', description: 'Never the secret.' })
  @ApiEnvelope({ message: 'Webhook fetched', type: WebhookDto })
  @ApiErrors(400, 404)
  getWebhook(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId', ParseObjectIdPipe) webhookId: string,
  ): Promise<WebhookDto> {
    return this.webhooks.get(principal.organizationId, webhookId);
  }

  @Patch(':webhookId')
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: 'Update a webhook',
    description:
      'All fields optional; omitted fields stay unchanged. The new settings apply from the next ' +
      'delivery attempt, retries of earlier events included. `secret` is write-only and replaces ' +
      'the current secret at once (rotate for an overlap). `active: true` re-enables a webhook ' +
      'that delivery switched off and clears disabledReason and disabledAt. 400: invalid body ' +
      'or id. 422: the URL is not an allowed target.',
  })
  @ApiEnvelope({ message: 'Webhook updated', type: UpdatedWebhookDto })
  @ApiErrors(400, 404, 422)
  updateWebhook(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId', ParseObjectIdPipe) webhookId: string,
    @Body() dto: UpdateWebhookDto,
  ): Promise<UpdatedWebhookDto> {
    return this.webhooks.update(principal.organizationId, webhookId, dto);
  }

  @Delete(':webhookId')
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: 'Delete a webhook for good',
    description:
      'Permanent, with its delivery log. Nothing more is sent to the endpoint, retries included.',
  })
  @ApiEnvelope({ message: 'Webhook deleted' })
  @ApiDeleteErrors()
  deleteWebhook(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId', ParseObjectIdPipe) webhookId: string,
  ): Promise<void> {
    return this.webhooks.remove(principal.organizationId, webhookId);
  }

  @Post(':webhookId/secret/rotate')
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description:
      'Generates a new secret, shown in this response only. During the grace period ' +
      '(gracePeriodSeconds, default 86400, at most 604800) deliveries carry two signatures, one ' +
      'with the new and one with the previous secret, so receivers can switch without losing ' +
      'events; 0 drops the previous secret at once.',
  })
  @ApiEnvelope({ message: 'Webhook secret rotated', type: RotatedWebhookSecretDto })
  @ApiErrors(400, 404)
  rotateWebhookSecret(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId', ParseObjectIdPipe) webhookId: string,
    @Body() dto: RotateWebhookSecretDto,
  ): Promise<RotatedWebhookSecretDto> {
    return this.webhooks.rotateSecret(principal.organizationId, webhookId, dto);
  }
}
