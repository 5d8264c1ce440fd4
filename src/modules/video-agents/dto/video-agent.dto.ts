import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length, Matches, MaxLength } from 'class-validator';
import { VOICE_MODES, type VoiceMode } from '../../../config';
import { IsOptionalNotNull } from '../../../common/dto-rules';
import {
  IsLanguageTag,
  MAX_LANGUAGE_TAG_LENGTH,
  toCanonicalLanguageTag,
} from '../../../common/language-tag';
import {
  IsPrompt,
  IsSpokenText,
  MAX_PROMPT_LENGTH,
  MAX_SPOKEN_TEXT_LENGTH,
} from '../../agents/dto/write-agent.dto';
import { IsVoiceMode, VOICE_MODES_DESCRIPTION } from './voice.dto';

/** What a client sends to create a video agent. */
export class CreateVideoAgentDto {
  @ApiProperty({ example: 'Onboarding guide', maxLength: 200, description: 'Display name' })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiPropertyOptional({
    enum: VOICE_MODES,
    default: 'video',
    description: `How the agent appears. ${VOICE_MODES_DESCRIPTION}`,
  })
  @IsOptionalNotNull()
  @IsVoiceMode()
  mode?: VoiceMode;

  @ApiProperty({
    example: '21m00Tcm4TlvDq8ikWAM',
    maxLength: 200,
    description:
      'A voice of `GET /api/video-agent/voices?mode=` this agent’s mode; any other answers 400',
  })
  @IsString()
  @MaxLength(200)
  voiceId!: string;

  @ApiPropertyOptional({
    example: 'en-US',
    maxLength: MAX_LANGUAGE_TAG_LENGTH,
    description:
      'BCP 47 language tag the agent speaks, stored in canonical form (`EN-us` → `en-US`); ' +
      'absent: the voice’s language',
  })
  @IsOptionalNotNull()
  @Transform(toCanonicalLanguageTag)
  @IsLanguageTag()
  language?: string;

  @ApiPropertyOptional({
    example: 'You welcome new customers and walk them through their first week.',
    default: '',
    maxLength: MAX_PROMPT_LENGTH,
    description: 'System prompt of the conversation',
  })
  @IsPrompt()
  prompt?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Hi, I am Ada from Acme. How can I help?',
    maxLength: MAX_SPOKEN_TEXT_LENGTH,
    description: 'First words the agent says; null or absent: it waits to be spoken to',
  })
  @IsSpokenText()
  greeting?: string | null;
}

/** A video agent as every video agent operation answers it (the seed names its id `id`). */
export class VideoAgentDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd', description: 'Video agent id' })
  id!: string;

  @ApiProperty({ example: 'Onboarding guide' })
  name!: string;

  @ApiProperty({ enum: VOICE_MODES, example: 'video' })
  mode!: VoiceMode;

  @ApiProperty({ example: '21m00Tcm4TlvDq8ikWAM', description: 'Voice id of the catalogue' })
  voiceId!: string;

  @ApiProperty({ example: 'en-US', description: 'BCP 47 language tag' })
  language!: string;

  @ApiProperty({ example: 'You welcome new customers.' })
  prompt!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Hi, I am Ada from Acme.' })
  greeting!: string | null;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  updatedAt!: string;
}
