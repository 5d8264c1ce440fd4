import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import type { CallEventType } from '@app/contracts';
import { PaginationDto } from '../../../common/page.query';
import type { WebhookDisabledReason } from '../webhooks.schema';
import { EVENTS_PROPERTY } from './write-webhook.dto';

export class WebhookDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'CRM sync' })
  name!: string;

  @ApiProperty({
    example: 'https://hooks.example.com/switchboard',
    description: 'HTTPS destination',
  })
  url!: string;

  @ApiProperty(EVENTS_PROPERTY)
  events!: CallEventType[];

  @ApiProperty({ example: true, description: 'false: no event is delivered' })
  active!: boolean;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({
    example: '2026-11-22T10:00:00.000Z',
    description: 'Last change by the owner (deliveries do not move it)',
  })
  updatedAt!: string;

  @ApiPropertyOptional({
    enum: ['gone', 'failing', 'manual'],
    example: 'gone',
    description:
      'Present when delivery switched the webhook off: `gone` (the endpoint answered 410), ' +
      '`failing` (it kept failing for 5 days), `manual`. Setting active to true clears it.',
  })
  disabledReason?: WebhookDisabledReason;

  @ApiPropertyOptional({
    example: '2026-11-22T10:00:00.000Z',
    description: 'When delivery switched the webhook off; present with disabledReason',
  })
  disabledAt?: string;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description:
      'The signing secret, shown in this response only: store it now. Verify deliveries with ' +
      'any Standard Webhooks library (or @app/webhooks).',
  })
  secret!: string;
}

export class UpdatedWebhookDto extends PickType(WebhookDto, [
  '_id',
  'name',
  'url',
  'events',
  'active',
  'updatedAt',
] as const) {}

export class WebhookListDto {
  @ApiProperty({ type: [WebhookDto], description: 'Newest first' })
  webhooks!: WebhookDto[];

  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}

export class RotatedWebhookSecretDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({
    example: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
    description: 'The new signing secret, shown in this response only',
  })
  secret!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '2026-11-23T10:00:00.000Z',
    description:
      'Until then deliveries carry two signatures, one per secret; null when the grace period ' +
      'was 0 and the old secret no longer signs',
  })
  previousSecretExpiresAt!: string | null;
}
