import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsString, Length, Matches, MaxLength } from 'class-validator';
import { IsHeaderCredential, IsOptionalNotNull } from '../../../common/dto-rules';
import type { MessagingIntegrationStatus } from '../messaging.schema';

/** Ids of the platform's objects (phone numbers, business accounts) are decimal digits. */
export const PLATFORM_ID = /^\d{1,32}$/;
const PLATFORM_ID_MESSAGE = (property: string) => `${property} must be the platform's numeric id`;
const MAX_ACCESS_TOKEN_LENGTH = 1024;

export class CreateMessagingIntegrationDto {
  @ApiProperty({
    example: '106540352242922',
    description: 'Id of the business phone number on the messaging platform',
  })
  @IsString()
  @Matches(PLATFORM_ID, { message: PLATFORM_ID_MESSAGE('phoneNumberId') })
  phoneNumberId!: string;

  @ApiProperty({
    example: 'EAAGm0PX4ZCpsBAKZCZAo2ZB0ZC',
    maxLength: MAX_ACCESS_TOKEN_LENGTH,
    pattern: '^[\\x21-\\x7e]+$',
    description:
      'A system-user access token of the business account (printable ASCII without spaces, ' +
      'as the platform issues them: it travels in a header); stored encrypted, never returned',
    writeOnly: true,
  })
  @IsString()
  @Length(1, MAX_ACCESS_TOKEN_LENGTH)
  @IsHeaderCredential()
  accessToken!: string;

  @ApiProperty({
    example: '102290129340398',
    description: 'Id of the business account (WABA) the number belongs to',
  })
  @IsString()
  @Matches(PLATFORM_ID, { message: PLATFORM_ID_MESSAGE('businessAccountId') })
  businessAccountId!: string;

  @ApiPropertyOptional({
    example: 'Acme support',
    maxLength: 200,
    description: 'Our display name of the number; absent: the platform’s verified name',
  })
  @IsOptionalNotNull()
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'displayName must not be blank' })
  displayName?: string;
}

/**
 * Only the fields sent change; a new accessToken or businessAccountId is checked at the
 * platform before it replaces the old one. null is refused like any other invalid value.
 */
export class UpdateMessagingIntegrationDto extends PartialType(
  OmitType(CreateMessagingIntegrationDto, ['phoneNumberId']),
  { skipNullProperties: false },
) {}

export class UpdateMessagingWebhookUrlDto {
  @ApiProperty({ example: '106540352242922', description: 'A connected business number' })
  @IsString()
  @Matches(PLATFORM_ID, { message: PLATFORM_ID_MESSAGE('phoneNumberId') })
  phoneNumberId!: string;

  @ApiProperty({
    example: 'https://hooks.example.com/messaging',
    maxLength: 200,
    description:
      'Public https URL that receives this number’s incoming messages and statuses (the ' +
      'platform allows 200 characters)',
  })
  @IsString()
  @MaxLength(200)
  webhookUrl!: string;
}

/** A connected business number as every integration operation answers it. */
export class MessagingIntegrationDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: '106540352242922' })
  phoneNumberId!: string;

  @ApiProperty({ example: '+15550967852', description: 'E.164, from the platform' })
  phoneNumber!: string;

  @ApiProperty({ example: 'Acme support' })
  displayName!: string;

  @ApiProperty({
    enum: ['connected', 'reauth_required'],
    example: 'connected',
    description:
      'connected; reauth_required once the platform refused the access token (code 190): ' +
      'update the integration with a new accessToken',
  })
  status!: MessagingIntegrationStatus;

  @ApiProperty({ example: '102290129340398' })
  businessAccountId!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://hooks.example.com/messaging',
    description: 'The per-number webhook URL last set through update-webhook-url',
  })
  webhookUrl!: string | null;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  updatedAt!: string;
}

export class MessagingWebhookUrlDto {
  @ApiProperty({ example: '106540352242922' })
  phoneNumberId!: string;

  @ApiProperty({ example: 'https://hooks.example.com/messaging' })
  webhookUrl!: string;
}
