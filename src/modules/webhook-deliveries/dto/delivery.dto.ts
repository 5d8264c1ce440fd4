import { ApiProperty } from '@nestjs/swagger';
import { PaginationDto } from '../../../common/page.query';
import type {
  AttemptErrorClass,
  AttemptTrigger,
  DeliveryStatus,
} from '../webhook-deliveries.schema';
import { DELIVERY_STATUSES } from './delivery-queries';

const ERROR_CLASSES: AttemptErrorClass[] = [
  'timeout',
  'dns',
  'tls',
  'connect',
  'ssrf_blocked',
  'http_status',
];
const TRIGGERS: AttemptTrigger[] = ['scheduled', 'manual', 'recover', 'probe'];

export class DeliveryAttemptDto {
  @ApiProperty({ example: 1, description: '1 for the first attempt' })
  attemptNo!: number;

  @ApiProperty({ enum: TRIGGERS, example: 'scheduled' })
  trigger!: AttemptTrigger;

  @ApiProperty({ enum: ['succeeded', 'failed'], example: 'failed' })
  status!: 'succeeded' | 'failed';

  @ApiProperty({ type: Number, nullable: true, example: 503, description: 'null: no response' })
  responseStatus!: number | null;

  @ApiProperty({ example: 182 })
  durationMs!: number;

  @ApiProperty({ enum: ERROR_CLASSES, nullable: true, example: 'http_status' })
  errorClass!: AttemptErrorClass | null;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  attemptedAt!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22T10:00:05.000Z',
    description: 'When this attempt scheduled the next one; null when the delivery ended',
  })
  nextAttemptAt!: string | null;
}

export class DeliveryDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'msg_01JDQ3Z6V9K4T2N8R5W7X0Y1AB', description: 'Sent as webhook-id' })
  eventId!: string;

  @ApiProperty({ example: 'call.completed' })
  eventType!: string;

  @ApiProperty({
    enum: DELIVERY_STATUSES,
    example: 'pending',
    description:
      'pending: waiting for its next attempt; sending: an attempt is running; held: the ' +
      "webhook's circuit is open (endpoint down), sent once it recovers; succeeded; failed: " +
      'attempts exhausted or 410; cancelled: the webhook was inactive',
  })
  status!: DeliveryStatus;

  @ApiProperty({ example: 2 })
  attemptCount!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-22T10:00:35.000Z',
    description: 'When the next attempt is due (pending deliveries only)',
  })
  nextAttemptAt!: string | null;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ type: [DeliveryAttemptDto], description: 'Oldest first' })
  attempts!: DeliveryAttemptDto[];
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto], description: 'Newest first' })
  deliveries!: DeliveryDto[];

  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}

export class QueuedDeliveriesDto {
  @ApiProperty({ example: 12, description: 'Deliveries queued to be sent again' })
  queued!: number;
}

export class TestDeliveryDto {
  @ApiProperty({ example: 'msg_01JDQ3Z6V9K4T2N8R5W7X0Y1AB' })
  eventId!: string;

  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  deliveryId!: string;
}
