import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { CALL_EVENT_TYPES, type CallEventType, WEBHOOK_TEST_EVENT_TYPE } from '@app/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { EVENT_DATA_MODELS, WebhookEventEnvelope } from './webhook-event-payloads.dto';
import { IsWebhookSecret } from './webhook-secret.validator';
import { IsOptionalNotNull } from '../../../common/dto-rules';

const MAX_URL_LENGTH = 2048;
const DEFAULT_GRACE_SECONDS = 86_400;
const MAX_GRACE_SECONDS = 604_800;

const EVENTS_DESCRIPTION =
  'Call event types delivered to this endpoint: a non-empty list without repeats. Each delivery ' +
  'is a POST of `{ type, timestamp, data }` signed the Standard Webhooks way (`webhook-id`, ' +
  '`webhook-timestamp`, `webhook-signature` headers); the `data` of each type is documented in ' +
  `the schemas ${CALL_EVENT_TYPES.map((type) => EVENT_DATA_MODELS[type].name).join(', ')} ` +
  `(and ${EVENT_DATA_MODELS[WEBHOOK_TEST_EVENT_TYPE].name} for \`${WEBHOOK_TEST_EVENT_TYPE}\`, ` +
  `which is never subscribed to), all wrapped in ${WebhookEventEnvelope.name}.`;

/** The documentation of `events`, the same in requests and responses. */
export const EVENTS_PROPERTY = {
  enum: CALL_EVENT_TYPES,
  isArray: true,
  example: ['call.completed', 'call.recording.available'],
  description: EVENTS_DESCRIPTION,
};

const URL_DESCRIPTION =
  'Public HTTPS endpoint: `https:` only, no user:password, port 443 or 1024–65535, and its host ' +
  'must resolve only to globally routable addresses (no private, loopback, link-local, shared, ' +
  'multicast, documentation or cloud-metadata address, also not in IPv4-mapped or NAT64 form). ' +
  'The check runs again when each delivery connects, so a host that later resolves elsewhere ' +
  'gets nothing. Otherwise 422.';

const SECRET_DESCRIPTION =
  'Signing secret: `whsec_` followed by the base64 of 24 to 64 random bytes (anything else is ' +
  '400). Write-only: it is never returned afterwards.';

export class CreateWebhookDto {
  @ApiProperty({ example: 'CRM sync', maxLength: 100, description: 'Display name' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @ApiProperty({
    example: 'https://hooks.example.com/switchboard',
    maxLength: MAX_URL_LENGTH,
    description: URL_DESCRIPTION,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_URL_LENGTH)
  url!: string;

  @ApiProperty(EVENTS_PROPERTY)
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(CALL_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(CALL_EVENT_TYPES, {
    each: true,
    message: `each value in events must be one of ${CALL_EVENT_TYPES.join(', ')}`,
  })
  events!: CallEventType[];

  @ApiPropertyOptional({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: `${SECRET_DESCRIPTION} Omit it to have one generated; either way the secret is in the response to this request only.`,
  })
  @IsOptional()
  @IsWebhookSecret()
  secret?: string;
}

// A PATCH leaves out what it does not change; null is not "no change" and is refused.
export class UpdateWebhookDto extends PartialType(CreateWebhookDto, { skipNullProperties: false }) {
  @ApiPropertyOptional({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: `${SECRET_DESCRIPTION} Replaces the current secret at once, without overlap (use the rotate operation for a grace period).`,
  })
  @IsOptionalNotNull()
  @IsWebhookSecret()
  declare secret?: string;

  @ApiPropertyOptional({
    example: true,
    description:
      'false stops deliveries; true enables the webhook again and clears disabledReason and ' +
      'disabledAt.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  active?: boolean;
}

export class RotateWebhookSecretDto {
  @ApiPropertyOptional({
    default: DEFAULT_GRACE_SECONDS,
    minimum: 0,
    maximum: MAX_GRACE_SECONDS,
    example: 86_400,
    description:
      'How long the previous secret keeps signing next to the new one (seconds, up to 7 days; ' +
      '0 replaces it at once). Rotating again during a grace period drops the older secret.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_GRACE_SECONDS)
  gracePeriodSeconds: number = DEFAULT_GRACE_SECONDS;
}
