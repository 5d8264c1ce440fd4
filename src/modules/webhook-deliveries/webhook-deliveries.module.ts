import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AttemptLog } from './attempt-log';
import { CircuitBreaker } from './circuit-breaker';
import { DELIVERY_RANDOM, DeliverWebhookHandler } from './deliver-webhook.handler';
import { DeliveryClaimsRepository } from './delivery-claims.repository';
import { DeliverySweeper } from './delivery-sweeper';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WebhookCircuitsRepository } from './webhook-circuits.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

/** Sending deliveries (job handler, sweeper, circuit breaker) and the delivery log API. */
@Module({
  imports: [EventsModule, WebhooksModule, NotificationsModule],
  controllers: [WebhookDeliveriesController],
  providers: [
    WebhookDeliveriesRepository,
    DeliveryClaimsRepository,
    WebhookCircuitsRepository,
    WebhookDeliveriesService,
    AttemptLog,
    CircuitBreaker,
    DeliverWebhookHandler,
    DeliverySweeper,
    { provide: DELIVERY_RANDOM, useValue: Math.random },
  ],
})
export class WebhookDeliveriesModule {}
