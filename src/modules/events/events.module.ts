import { Module } from '@nestjs/common';
import { DeliveryQueue } from '../webhook-deliveries/delivery-queue';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/**
 * Raising events (the outbox). It also provides DeliveryQueue, which queues the first attempt
 * of each delivery after commit; WebhookDeliveriesModule imports it for every later attempt.
 */
@Module({
  providers: [EventsRepository, EventsService, DeliveryQueue],
  exports: [EventsService, DeliveryQueue],
})
export class EventsModule {}
