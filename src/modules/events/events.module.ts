import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { DeliveryQueue } from '../webhook-deliveries/delivery-queue';
import { EventRetention } from './event-retention';
import { EventsRepository } from './events.repository';
import { EventsService } from './events.service';
import { SealedEventData } from './sealed-event-data';

/**
 * Raising events (the outbox) and purging expired ones. It also provides DeliveryQueue, which
 * queues the first attempt of each delivery after commit; WebhookDeliveriesModule imports it
 * for every later attempt, and SealedEventData to open an event's sealed fields as it sends.
 */
@Module({
  providers: [
    EventsRepository,
    EventsService,
    EventRetention,
    DeliveryQueue,
    SealedEventData,
    SecretBox,
  ],
  exports: [EventsService, DeliveryQueue, SealedEventData],
})
export class EventsModule {}
