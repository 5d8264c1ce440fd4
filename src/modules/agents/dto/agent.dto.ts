import { DocsPageDto } from '../../../common/docs-page.dto';
import { ApiProperty } from '@nestjs/swagger';
import { AnalysisFieldDto } from './analysis-field.dto';
import {
  CALL_SECONDS,
  CALLEE_FIRST_WAIT_MS,
  CONVERSATION_TYPES,
  type ConversationType,
  FIRST_SPEAKERS,
  type FirstSpeaker,
  IVR_ACTIONS,
  type IvrAction,
  SCREENING_ACTIONS,
  TRANSFER_MODES,
  type TransferMode,
  type ScreeningAction,
} from './write-agent.dto';

/** A voice agent as every agent operation answers it. */
export class AgentDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'Renewals agent' })
  agent_name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'female' })
  gender!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'alloy',
    description: 'Voice id; null: the text-to-speech engine’s default',
  })
  voice!: string | null;

  @ApiProperty({ enum: CONVERSATION_TYPES, example: 'single_prompt' })
  conversationType!: ConversationType;

  @ApiProperty({ example: 'You call customers whose contract ends this month.' })
  prompt!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Hello, this is Ada from Acme.' })
  greeting!: string | null;

  @ApiProperty({ example: 'en-US', description: 'BCP 47 language tag' })
  language!: string;

  @ApiProperty({ type: [String], example: ['65f1c0ffee0123456789abcd'] })
  knowledgeBaseIds!: string[];

  @ApiProperty({ type: String, nullable: true, example: 'Please call us back.' })
  voicemailMessage!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '+14155550100', description: 'E.164' })
  transferNumber!: string | null;

  @ApiProperty({ enum: TRANSFER_MODES, example: 'warm' })
  transferMode!: TransferMode;

  @ApiProperty({ example: 600, minimum: CALL_SECONDS.min, maximum: CALL_SECONDS.max })
  maxCallSeconds!: number;

  @ApiProperty({ example: true })
  interruptible!: boolean;

  @ApiProperty({
    example: false,
    description:
      "Digits typed for collect_digits reach the webhook alone (call.completed's " +
      '`collected_digits`), kept sealed at rest; the model, the transcript and batch details ' +
      'see only how many were typed',
  })
  privateDigits!: boolean;

  @ApiProperty({ enum: FIRST_SPEAKERS, example: 'agent' })
  firstSpeaker!: FirstSpeaker;

  @ApiProperty({ enum: IVR_ACTIONS, example: 'navigate' })
  onIvr!: IvrAction;

  @ApiProperty({ enum: SCREENING_ACTIONS, example: 'announce' })
  onCallScreening!: ScreeningAction;

  @ApiProperty({
    example: CALLEE_FIRST_WAIT_MS.default,
    minimum: CALLEE_FIRST_WAIT_MS.min,
    maximum: CALLEE_FIRST_WAIT_MS.max,
  })
  calleeFirstWaitMs!: number;

  @ApiProperty({ type: [AnalysisFieldDto] })
  analysisFields!: AnalysisFieldDto[];

  @ApiProperty({
    example: true,
    description:
      'The organization’s default agent: it speaks on batches created without agentId, and on ' +
      'batches whose agent was deleted. Exactly one agent of an organization is its default.',
  })
  isDefault!: boolean;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  updatedAt!: string;
}

/** GET /api/agents: the seed's page shape. */
export class AgentListDto extends DocsPageDto(AgentDto, 'Newest first') {}
