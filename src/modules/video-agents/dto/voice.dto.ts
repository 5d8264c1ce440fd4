import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { VOICE_MODES, type VoiceMode } from '../../../config';

/** What each mode means; shared by the voices query and the video agent's `mode`. */
export const VOICE_MODES_DESCRIPTION =
  '`audio`: the agent is heard only, spoken by a text-to-speech engine (the voices a voice ' +
  'agent’s `voice` may name too). `video`: a talking avatar; its voices come from engines that ' +
  'return word timing with the audio (ElevenLabs, the offline eSpeak NG), which lip-sync needs.';

/** A mode of VOICE_MODES (the voices query, a video agent's mode). */
export const IsVoiceMode = (): PropertyDecorator =>
  IsIn(VOICE_MODES, { message: `mode must be one of ${VOICE_MODES.join(', ')}` });

/** GET /api/video-agent/voices: the optional mode filter. */
export class ListVoicesQuery {
  @ApiPropertyOptional({
    enum: VOICE_MODES,
    example: 'video',
    description: `Video generation mode: only the voices compatible with it. Absent: every voice of the catalogue. Any other value (also an empty one) answers 400. ${VOICE_MODES_DESCRIPTION}`,
  })
  @IsOptional()
  @IsVoiceMode()
  mode?: VoiceMode;
}

/** One voice of the catalogue, in the seed's shape. */
export class VoiceDto {
  @ApiProperty({
    example: '21m00Tcm4TlvDq8ikWAM',
    description:
      'Voice id: what a video agent’s `voiceId` (and, for audio voices, a voice agent’s `voice`) names',
  })
  id!: string;

  @ApiProperty({ example: 'Rachel' })
  name!: string;

  @ApiProperty({ example: 'en-US', description: 'BCP 47 tag of the language the voice speaks' })
  language!: string;

  @ApiProperty({ example: 'female', description: '`female`, `male` or `neutral` by default' })
  gender!: string;

  @ApiProperty({
    example: 'elevenlabs',
    description:
      'The engine that speaks it: `offline` (eSpeak NG), `openai` (OpenAI-compatible speech) or ' +
      '`elevenlabs` by default, as TTS_PROVIDER names them',
  })
  provider!: string;
}
