import { Injectable } from '@nestjs/common';
import {
  type CallEventType,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookEventDataMap,
} from '@app/contracts';
import { Clock } from '../../common/clock';
import { Database } from '../../database';
import { DeliveryQueue } from '../webhook-deliveries/delivery-queue';
import { newEventId } from './event-id';
import { type EventAudience, EventsRepository } from './events.repository';
import { SealedEventData } from './sealed-event-data';

/** Filled in by raise(): the call, its next sequence number and the time. */
type AssignedFields = 'call_id' | 'sequence' | 'occurred_at';

export interface CallEvent<T extends CallEventType = CallEventType> {
  type: T;
  callId: string;
  /** The payload of that type (libs/contracts) but for `call_id`, `sequence`, `occurred_at`. */
  data: Omit<WebhookEventDataMap[T], AssignedFields>;
  /**
   * Private parts of the payload, sealed in the outbox and opened into `data` only by the
   * delivery (withSealedFields: an object field's entries join those of `data`).
   */
  sealed?: Partial<Omit<WebhookEventDataMap[T], AssignedFields>>;
}

export const TEST_EVENT_MESSAGE = 'This is a test event from Switchboard.';

export interface RaisedEvent {
  id: string;
  sequence: number;
  occurredAt: Date;
  /** The deliveries written (one per receiving webhook). */
  deliveryIds: string[];
}

/**
 * The one way to raise an event. `raise` joins the caller's Database.transaction: the event and
 * its deliveries commit or roll back with the state change they report, and the delivery jobs
 * are queued only after the commit (if Redis is down then, the sweeper queues them later).
 */
@Injectable()
export class EventsService {
  constructor(
    private readonly database: Database,
    private readonly events: EventsRepository,
    private readonly deliveries: DeliveryQueue,
    private readonly sealedData: SealedEventData,
    private readonly clock: Clock,
  ) {}

  raise<T extends CallEventType>(
    organizationId: string,
    event: CallEvent<T>,
  ): Promise<RaisedEvent> {
    return this.write(
      organizationId,
      { type: event.type, callId: event.callId, data: { ...event.data }, sealed: event.sealed },
      { subscribers: true },
    );
  }

  /** A `webhook.test` event for that webhook only, through the same outbox and pipeline. */
  raiseTest(organizationId: string, webhookId: string): Promise<RaisedEvent> {
    return this.write(
      organizationId,
      {
        type: WEBHOOK_TEST_EVENT_TYPE,
        callId: null,
        data: { webhook_id: webhookId, message: TEST_EVENT_MESSAGE },
      },
      { webhookId },
    );
  }

  private async write(
    organizationId: string,
    event: {
      type: string;
      callId: string | null;
      data: Record<string, unknown>;
      sealed?: Record<string, unknown>;
    },
    audience: EventAudience,
  ): Promise<RaisedEvent> {
    if (!this.database.inTransaction) {
      throw new Error(
        'EventsService.raise() must run inside Database.transaction(), with the change it reports',
      );
    }
    const occurredAt = this.clock.now();
    const id = newEventId(occurredAt);
    const { sealed, ...fields } = event;
    const sealedData =
      sealed && Object.keys(sealed).length > 0
        ? this.sealedData.seal(organizationId, id, sealed)
        : null;
    const { sequence, deliveryIds } = await this.events.insert(
      organizationId,
      { id, ...fields, occurredAt, sealedData },
      audience,
    );
    if (deliveryIds.length > 0) {
      this.database.afterCommit(async () => {
        await this.deliveries.enqueueFirst(deliveryIds);
      });
    }
    return { id, sequence, occurredAt, deliveryIds };
  }
}
