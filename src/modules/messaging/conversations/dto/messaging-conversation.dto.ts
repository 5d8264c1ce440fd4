import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { DocsPageDto } from '../../../../common/docs-page.dto';
import { IsOptionalNotNull } from '../../../../common/dto-rules';
import type { TemplateVariableComponent } from '../../template-variables';
import {
  MessagingChoiceDto,
  MessagingContactCardDto,
  MessagingLocationDto,
  MessagingMediaDto,
  MessagingReactionDto,
} from './messaging-message-content.dto';
import type {
  MessageDirection,
  MessagePurpose,
  MessageStatus,
} from '../messaging-conversations.schema';

const STATUSES: MessageStatus[] = [
  'received',
  'pending',
  'sent',
  'delivered',
  'read',
  'failed',
  'not_sent',
];

export class MessagingConversationDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: '106540352242922', description: 'The business number written to' })
  phoneNumberId!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '16505551234',
    description:
      "The customer's phone number (digits), when the platform shares it: a customer with a " +
      'WhatsApp username may be known by customerUserId only',
  })
  customerWaId!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'US.13491208655302741918',
    description:
      "The customer's business-scoped user id: the platform's key for them since 2026, sent " +
      'with every message (null on conversations from before). Replies go to the phone number ' +
      'when known, else to this id',
  })
  customerUserId!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Sheena Nelson' })
  customerName!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'sheena.n',
    description: 'WhatsApp username',
  })
  customerUsername!: string | null;

  @ApiProperty({
    example: '2026-03-01T12:00:00.000Z',
    description: "The customer's latest message: free text may be sent for 24 hours after it",
  })
  lastCustomerMessageAt!: string;

  @ApiProperty({ example: true, description: 'Within 24 hours of the customer’s latest message' })
  windowOpen!: boolean;

  @ApiProperty({
    example: false,
    description:
      'An answer was due outside the 24-hour window and was not sent: only a template ' +
      '(POST /api/messaging/conversations/{id}/template) reaches the customer now',
  })
  needsTemplate!: boolean;

  @ApiProperty({ example: '2026-03-01T12:00:05.000Z' })
  lastMessageAt!: string;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  createdAt!: string;
}

/** GET /api/messaging/conversations: the seed's page shape. */
export class MessagingConversationListDto extends DocsPageDto(
  MessagingConversationDto,
  'Latest activity first',
) {}

export class MessagingMessageErrorDto {
  @ApiProperty({
    example: '131026',
    description:
      "The platform's error code, or ours: llm_not_configured, llm_failed, outside_window, " +
      'number_removed',
  })
  code!: string;

  @ApiProperty({ example: 'Message undeliverable' })
  message!: string;
}

export class MessagingMessageDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ enum: ['inbound', 'outbound'], example: 'inbound' })
  direction!: MessageDirection;

  @ApiProperty({
    example: 'text',
    description:
      "The platform's type: text, template, image, audio, video, document, sticker, button " +
      '(a template quick reply), interactive (a reply button or list row), location, contacts, ' +
      'reaction, …',
  })
  type!: string;

  @ApiProperty({
    enum: ['welcome', 'reply', 'template'],
    nullable: true,
    example: 'reply',
    description: 'What an outgoing message is for; null on incoming ones',
  })
  purpose!: MessagePurpose | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'We open at 9.',
    description:
      'The text: a media caption, the title of a tapped button (a template: its body as the ' +
      'customer reads it)',
  })
  text!: string | null;

  @ApiProperty({
    type: MessagingMediaDto,
    nullable: true,
    description: 'A photo, voice note, audio, video, document or sticker the customer sent',
  })
  media!: MessagingMediaDto | null;

  @ApiProperty({
    type: MessagingChoiceDto,
    nullable: true,
    description: 'A button or list row the customer tapped, with its payload',
  })
  choice!: MessagingChoiceDto | null;

  @ApiProperty({ type: MessagingLocationDto, nullable: true })
  location!: MessagingLocationDto | null;

  @ApiProperty({
    type: [MessagingContactCardDto],
    nullable: true,
    description: 'Contact cards the customer shared',
  })
  contacts!: MessagingContactCardDto[] | null;

  @ApiProperty({
    type: MessagingReactionDto,
    nullable: true,
    description: 'A reaction to a message: stored, never answered',
  })
  reaction!: MessagingReactionDto | null;

  @ApiProperty({
    enum: STATUSES,
    example: 'delivered',
    description:
      'inbound: received. outbound: pending (being sent or waiting for a retry), sent, ' +
      'delivered, read, failed (the platform refused it or kept failing), not_sent (never ' +
      'sent: no model, a model error or outside the 24-hour window; see error)',
  })
  status!: MessageStatus;

  @ApiProperty({ type: MessagingMessageErrorDto, nullable: true })
  error!: MessagingMessageErrorDto | null;

  @ApiProperty({ type: String, nullable: true, example: 'wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQ' })
  platformMessageId!: string | null;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-03-01T12:00:01.000Z' })
  updatedAt!: string;
}

export class TemplateValueDto {
  @ApiProperty({ enum: ['header', 'body', 'button'], example: 'body' })
  @IsIn(['header', 'body', 'button'])
  component!: TemplateVariableComponent;

  @ApiPropertyOptional({ example: 1, description: 'Position of a `{{1}}`-style variable' })
  @ValidateIf((value: TemplateValueDto) => value.name === undefined)
  @IsInt()
  @Min(1)
  @Max(100)
  index?: number;

  @ApiPropertyOptional({ example: 'first_name', description: 'Name of a `{{name}}` variable' })
  @IsOptionalNotNull()
  @IsString()
  @Matches(/^[a-z_][a-z0-9_]{0,63}$/, { message: 'name must be a template variable name' })
  name?: string;

  @ApiPropertyOptional({ example: 0, description: 'Position of the button (button variables)' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(10)
  buttonIndex?: number;

  @ApiProperty({ example: 'Ana', maxLength: 1024 })
  @IsString()
  @Length(1, 1024)
  value!: string;
}

export class SendConversationTemplateDto {
  @ApiProperty({ example: 'order_update', description: 'An APPROVED template of the number' })
  @IsString()
  @Matches(/^[a-z0-9_]{1,512}$/, { message: 'name must be a template name' })
  name!: string;

  @ApiProperty({ example: 'en_US' })
  @IsString()
  @Matches(/^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$/, { message: 'language must be a language code' })
  language!: string;

  @ApiPropertyOptional({
    type: [TemplateValueDto],
    description:
      'One value per variable that GET /api/messaging/get-variable-by-template-id lists ' +
      '(component, index or name, buttonIndex for buttons)',
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => TemplateValueDto)
  variables?: TemplateValueDto[];
}
