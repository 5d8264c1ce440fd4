import { Module } from '@nestjs/common';
import { DeliveryQueue } from '../webhook-deliveries/delivery-queue';
import { EventRetention } from './event-retention';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';

/**
 * Raising events (the outbox) and purging expired ones. It also provides DeliveryQueue, which
 * queues the first attempt of each delivery after commit; WebhookDeliveriesModule imports it
 * for every later attempt.
 */
@Module({
  providers: [EventsRepository, EventsService, EventRetention, DeliveryQueue],
  exports: [EventsService, DeliveryQueue],
})
export class EventsModule {}
