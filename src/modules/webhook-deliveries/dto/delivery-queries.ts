import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsDateTimeInRange } from '../../../common/dto-rules';
import { PageQuery } from '../../../common/page.query';
import { type DeliveryStatus } from '../webhook-deliveries.schema';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = [
  'pending',
  'sending',
  'held',
  'succeeded',
  'failed',
  'cancelled',
];

export class ListDeliveriesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES, example: 'failed' })
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ example: 'call.completed' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  eventType?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Deliveries created at or after this time',
  })
  @IsOptional()
  @IsDateTimeInRange()
  since?: Date;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'Deliveries created before this time',
  })
  @IsOptional()
  @IsDateTimeInRange()
  until?: Date;
}

export class RecoverDeliveriesDto {
  @ApiProperty({
    type: String,
    format: 'date-time',
    example: '2026-11-22T00:00:00.000Z',
    description: 'Re-send the deliveries that ended failed at or after this time',
  })
  @IsDateTimeInRange()
  since!: Date;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: '…and before this time (default: no end)',
  })
  @IsOptional()
  @IsDateTimeInRange()
  until?: Date;
}
