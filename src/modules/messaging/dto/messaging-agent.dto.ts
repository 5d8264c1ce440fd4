import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsNumber,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IsObjectId } from '../../../common/is-object-id.validator';
import { IsOptionalNotNull } from '../../../common/dto-rules';
import { MAX_KNOWLEDGE_BASES, MAX_PROMPT_LENGTH } from '../../agents/dto/write-agent.dto';
import type { MessagingAgentStatus } from '../messaging.schema';
import { PLATFORM_ID } from './messaging-integration.dto';

/** The platform's limit on a text message body. */
const MAX_MESSAGE_LENGTH = 4096;

/** What a client sends to create a messaging agent. */
export class CreateMessagingAgentDto {
  @ApiProperty({ example: 'Support bot', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'agentName must not be blank' })
  agentName!: string;

  @ApiProperty({
    example: '106540352242922',
    description: 'A connected business number (POST /api/messaging/messaging-integration)',
  })
  @IsString()
  @Matches(PLATFORM_ID, { message: "phoneNumberId must be the platform's numeric id" })
  phoneNumberId!: string;

  @ApiProperty({
    example: 'You answer questions about Acme orders, briefly and politely.',
    maxLength: MAX_PROMPT_LENGTH,
  })
  @IsString()
  @Length(1, MAX_PROMPT_LENGTH)
  @Matches(/\S/, { message: 'systemPrompt must not be blank' })
  systemPrompt!: string;

  @ApiPropertyOptional({
    example: 'Hi! I am Acme’s assistant. How can I help?',
    maxLength: MAX_MESSAGE_LENGTH,
    description: 'Sent when a conversation starts',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(MAX_MESSAGE_LENGTH)
  welcomeMessage?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['65f1c0ffee0123456789abcd'],
    description: 'Knowledge bases of the organization whose passages the agent is given',
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_KNOWLEDGE_BASES)
  @IsObjectId({ each: true })
  knowledgeBase?: string[];

  @ApiPropertyOptional({ example: 'gpt-4o-mini', description: 'Absent: LLM_MODEL' })
  @IsOptionalNotNull()
  @IsString()
  @Length(1, 200)
  model?: string;

  @ApiPropertyOptional({ example: 0.3, minimum: 0, maximum: 2 })
  @IsOptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(2)
  temperature?: number;
}

/**
 * Only the fields sent change; null is refused like any other invalid value (PartialType with
 * skipNullProperties false keeps each field's rules). A new phoneNumberId moves the agent.
 */
export class UpdateMessagingAgentDto extends PartialType(CreateMessagingAgentDto, {
  skipNullProperties: false,
}) {}

/** The seed's create answer. */
export class CreatedMessagingAgentDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'Support bot' })
  agentName!: string;

  @ApiProperty({ example: '106540352242922' })
  phoneNumberId!: string;

  @ApiProperty({ enum: ['active'], example: 'active' })
  status!: MessagingAgentStatus;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  createdAt!: string;
}

/** A messaging agent with every field of the seed's table. */
export class MessagingAgentDto extends CreatedMessagingAgentDto {
  @ApiProperty({ example: 'You answer questions about Acme orders.' })
  systemPrompt!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Hi! How can I help?' })
  welcomeMessage!: string | null;

  @ApiProperty({ type: [String], example: ['65f1c0ffee0123456789abcd'] })
  knowledgeBase!: string[];

  @ApiProperty({ type: String, nullable: true, example: 'gpt-4o-mini' })
  model!: string | null;

  @ApiProperty({ type: Number, nullable: true, example: 0.3 })
  temperature!: number | null;

  @ApiProperty({ example: '2026-03-01T12:00:00.000Z' })
  updatedAt!: string;
}
