import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, type Principal } from '../../auth/access';
import { ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { ParseObjectIdPipe } from '../../common/parse-object-id.pipe';
import { DeliveryListDto, QueuedDeliveriesDto, TestDeliveryDto } from './dto/delivery.dto';
import { ListDeliveriesQuery, RecoverDeliveriesDto } from './dto/delivery-queries';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

@ApiTags('Webhooks')
@Controller('api/webhooks')
export class WebhookDeliveriesController {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Get(':webhookId/deliveries')
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: "List a webhook's deliveries with their attempts",
    description:
      'Newest first; page defaults to 1, limit to 10 (at most 100). Filters: status, eventType, ' +
      'since/until (creation time). Each delivery lists its attempts: trigger, status, response ' +
      'code, duration, error class (timeout, dns, tls, connect, ssrf_blocked, http_status) and ' +
      'the next attempt it scheduled. Response bodies are kept in the log but never returned. ' +
      '`sending` is a delivery whose attempt is running now. Deliveries and their attempts are ' +
      'kept for WEBHOOK_RETENTION_DAYS (30 by default) after their event, once they have ended; ' +
      'one still pending or held is kept until it ends. 404: no such webhook in the organization.',
  })
  @ApiEnvelope({ message: 'Deliveries fetched', type: DeliveryListDto })
  @ApiErrors(400, 404)
  listWebhookDeliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId', ParseObjectIdPipe) webhookId: string,
    @Query() query: ListDeliveriesQuery,
  ): Promise<DeliveryListDto> {
    return this.deliveries.list(principal.organizationId, webhookId, query);
  }

  @Post(':webhookId/deliveries/:deliveryId/retry')
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: 'Send one delivery again now',
    description:
      'A new attempt with trigger `manual`, whatever the delivery status (also while the ' +
      "webhook's circuit is open). A manual attempt that fails continues the retry schedule if " +
      'attempts remain, else the delivery stays failed. 404: no such webhook or delivery; 409: ' +
      'an attempt of it is running.',
  })
  @ApiEnvelope({ message: 'Delivery queued', status: 202 })
  @ApiErrors(400, 404, 409)
  retryWebhookDelivery(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId', ParseObjectIdPipe) webhookId: string,
    @Param('deliveryId', ParseObjectIdPipe) deliveryId: string,
  ): Promise<void> {
    return this.deliveries.retry(principal.organizationId, webhookId, deliveryId);
  }

  @Post(':webhookId/recover')
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: 'Re-send every delivery that failed in a time window',
    description:
      'Every delivery of the webhook that ended `failed` at or after `since` (and before ' +
      '`until`) is queued again with trigger `recover`, in the background; the answer says how ' +
      'many. Deliveries that eventually succeeded are not re-sent. 404: no such webhook.',
  })
  @ApiEnvelope({ message: 'Recovery queued', status: 202, type: QueuedDeliveriesDto })
  @ApiErrors(400, 404)
  recoverWebhookDeliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId', ParseObjectIdPipe) webhookId: string,
    @Body() dto: RecoverDeliveriesDto,
  ): Promise<QueuedDeliveriesDto> {
    return this.deliveries.recover(principal.organizationId, webhookId, dto);
  }

  @Post(':webhookId/test')
  @Authenticated({ permission: 'webhooks' })
  @ApiOperation({
    summary: 'Send a signed test event to the webhook',
    description:
      'A `webhook.test` event delivered to this webhook only, through the same pipeline as call ' +
      'events (signed, retried, listed in its deliveries). An inactive webhook gets nothing ' +
      '(the delivery is cancelled). 404: no such webhook.',
  })
  @ApiEnvelope({ message: 'Test event queued', status: 202, type: TestDeliveryDto })
  @ApiErrors(404)
  testWebhook(
    @CurrentPrincipal() principal: Principal,
    @Param('webhookId', ParseObjectIdPipe) webhookId: string,
  ): Promise<TestDeliveryDto> {
    return this.deliveries.sendTest(principal.organizationId, webhookId);
  }
}
