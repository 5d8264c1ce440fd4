import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsOptionalNotNull } from '../../../common/dto-rules';
import { IsObjectId } from '../../../common/is-object-id.validator';
import {
  IsLanguageTag,
  MAX_LANGUAGE_TAG_LENGTH,
  toCanonicalLanguageTag,
} from '../../../common/language-tag';
import { IsE164PhoneNumber, toE164Number } from '../../../common/phone-number.validator';
import { AnalysisFieldDto, MAX_ANALYSIS_FIELDS } from './analysis-field.dto';

/** The conversation types the voice runtime runs. */
export const CONVERSATION_TYPES = ['single_prompt'] as const;
export type ConversationType = (typeof CONVERSATION_TYPES)[number];

/** Bounds of `maxCallSeconds`: at least 30 s, at most 2 h. */
export const CALL_SECONDS = { min: 30, max: 7_200, default: 600 } as const;

/** Who speaks first once a call is answered. */
export const FIRST_SPEAKERS = ['agent', 'callee'] as const;
export type FirstSpeaker = (typeof FIRST_SPEAKERS)[number];
/**
 * How long an agent that lets the callee speak first waits for their words, in ms: past it a
 * silent callee is greeted. Capped so a silent line is never left longer (docs/reliability.md).
 */
export const CALLEE_FIRST_WAIT_MS = { min: 500, max: 4_000, default: 2_500 } as const;
/** What the agent does when an automated menu answers the call. */
export const IVR_ACTIONS = ['navigate', 'hang_up'] as const;
export type IvrAction = (typeof IVR_ACTIONS)[number];
/** What the agent does when a call-screening assistant answers the call. */
export const SCREENING_ACTIONS = ['announce', 'hang_up'] as const;
export type ScreeningAction = (typeof SCREENING_ACTIONS)[number];
/** How the agent hands a call to its transferNumber. */
export const TRANSFER_MODES = ['cold', 'warm'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];
export const MAX_PROMPT_LENGTH = 20_000;
export const MAX_SPOKEN_TEXT_LENGTH = 2_000;
export const MAX_KNOWLEDGE_BASES = 20;

// The rules below are listed in the order stacked decorators apply (bottom first), so a value
// that breaks both reports MaxLength before IsString, as `@IsString() @MaxLength(n)` would.

/** A system prompt (agents, video agents): optional but never null, at most 20,000 characters. */
export const IsPrompt = (): PropertyDecorator =>
  applyDecorators(MaxLength(MAX_PROMPT_LENGTH), IsString(), IsOptionalNotNull());

/** Text the agent speaks (greeting, voicemail message): null or absent for none. */
export const IsSpokenText = (): PropertyDecorator =>
  applyDecorators(MaxLength(MAX_SPOKEN_TEXT_LENGTH), IsString(), IsOptional());

/**
 * What a client sends to create an agent. Fields whose column is nullable (gender, voice,
 * greeting, voicemailMessage, transferNumber) take null as "none"; the others refuse null.
 */
export class CreateAgentDto {
  @ApiProperty({ example: 'Renewals agent', maxLength: 200, description: 'Display name' })
  @IsString()
  @Length(1, 200)
  @Matches(/\S/, { message: 'agent_name must not be blank' })
  agent_name!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'female',
    maxLength: 50,
    description: 'Gender of the voice, as the client names it (free text)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  gender?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'alloy',
    maxLength: 200,
    description:
      'Voice id of the configured text-to-speech engine: one of ' +
      '`GET /api/video-agent/voices?mode=audio` (the catalogue), or any other id the engine ' +
      'knows (a cloned or self-hosted voice); null or absent: the engine’s default (TTS_VOICE)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  voice?: string | null;

  @ApiPropertyOptional({
    enum: CONVERSATION_TYPES,
    default: 'single_prompt',
    description:
      '`single_prompt`: one prompt steers the whole conversation (the only type the voice ' +
      'runtime runs; any other value answers 400)',
  })
  @IsOptionalNotNull()
  @IsIn(CONVERSATION_TYPES, {
    message: `conversationType must be one of ${CONVERSATION_TYPES.join(', ')}`,
  })
  conversationType?: ConversationType;

  @ApiPropertyOptional({
    example: 'You call customers whose contract ends this month and offer the renewal.',
    default: '',
    maxLength: MAX_PROMPT_LENGTH,
    description: 'System prompt of the conversation',
  })
  @IsPrompt()
  prompt?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Hello, this is Ada from Acme. Do you have a minute?',
    maxLength: MAX_SPOKEN_TEXT_LENGTH,
    description: 'First words the agent says once the call is answered',
  })
  @IsSpokenText()
  greeting?: string | null;

  @ApiPropertyOptional({
    example: 'en-US',
    default: 'en-US',
    maxLength: MAX_LANGUAGE_TAG_LENGTH,
    description:
      'BCP 47 language tag of the conversation, stored in canonical form (`EN-us` → `en-US`); ' +
      'a malformed tag answers 400',
  })
  @IsOptionalNotNull()
  @Transform(toCanonicalLanguageTag)
  @IsLanguageTag()
  language?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['65f1c0ffee0123456789abcd'],
    default: [],
    description: `Knowledge base ids whose passages the agent is given (at most ${MAX_KNOWLEDGE_BASES}, no repeats). Each must be a knowledge base of the organization (GET /api/knowledgeBase), else 400 naming knowledgeBaseIds. Deleting a knowledge base removes its id from every agent.`,
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_KNOWLEDGE_BASES)
  @ArrayUnique()
  @IsObjectId({ each: true })
  knowledgeBaseIds?: string[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Hi, this is Acme about your renewal. Please call us back at 415 555 0100.',
    maxLength: MAX_SPOKEN_TEXT_LENGTH,
    description: 'Left after the beep when an answering machine picks up; null: hang up',
  })
  @IsSpokenText()
  voicemailMessage?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '+14155550100',
    description:
      'Where the agent may transfer the call: with country code, `+` optional; stored in E.164. ' +
      'An invalid number answers 400; null: no transfer',
  })
  @IsOptional()
  @Transform(toE164Number)
  @IsE164PhoneNumber()
  transferNumber?: string | null;

  @ApiPropertyOptional({
    enum: TRANSFER_MODES,
    default: 'cold',
    description:
      'How a transfer to transferNumber is made. cold: the colleague is rung and the caller ' +
      'put through as soon as they pick up. warm: the colleague first hears a brief the agent ' +
      "wrote (who calls and what they need; also call.transferred's `summary`) and presses 1 " +
      'to take the call; if they decline, hang up or do not answer, the caller is given back to ' +
      'the agent, who says so and goes on. provider_two and provider_one brief through the ' +
      "transfer's <Dial>; provider_three calls the colleague on a leg of its own and bridges " +
      "it, the caller hearing ringing on the agent's stream meanwhile",
  })
  @IsOptionalNotNull()
  @IsIn(TRANSFER_MODES)
  transferMode?: TransferMode;

  @ApiPropertyOptional({
    example: 600,
    default: CALL_SECONDS.default,
    minimum: CALL_SECONDS.min,
    maximum: CALL_SECONDS.max,
    description: `Longest call in seconds (${CALL_SECONDS.min} to ${CALL_SECONDS.max}); the call is ended politely when it is reached`,
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(CALL_SECONDS.min)
  @Max(CALL_SECONDS.max)
  maxCallSeconds?: number;

  @ApiPropertyOptional({
    example: false,
    default: false,
    description:
      'The agent can have the callee type a number on the keypad (its collect_digits tool: an ' +
      'account number, a PIN), gathered exactly until #, the number of digits asked, or a ' +
      '6-second pause. false: the model is given the digits. true: the model hears only how ' +
      'many were typed, and the transcript too; the digits reach your webhook alone, in ' +
      "call.completed's `collected_digits`. Kept sealed at rest (AES-256-GCM, on the call and " +
      'in the webhook outbox) and opened only to send that webhook; batch details show them ' +
      'masked (•••• for four digits)',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  privateDigits?: boolean;

  @ApiPropertyOptional({
    example: true,
    default: true,
    description: 'Whether the callee can interrupt the agent (barge-in)',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  interruptible?: boolean;

  @ApiPropertyOptional({
    enum: FIRST_SPEAKERS,
    default: 'agent',
    description:
      'Who speaks first once the call is answered. agent: the greeting plays as soon as the ' +
      'callee\'s audio arrives. callee: the agent waits for the callee\'s first words ("Hello?") ' +
      'and greets once they stop, or after calleeFirstWaitMs of silence; those words are kept ' +
      'in the transcript, not answered',
  })
  @IsOptionalNotNull()
  @IsIn(FIRST_SPEAKERS)
  firstSpeaker?: FirstSpeaker;

  @ApiPropertyOptional({
    example: CALLEE_FIRST_WAIT_MS.default,
    default: CALLEE_FIRST_WAIT_MS.default,
    minimum: CALLEE_FIRST_WAIT_MS.min,
    maximum: CALLEE_FIRST_WAIT_MS.max,
    description:
      'With firstSpeaker callee: how long (ms) a silent callee is waited for before the greeting',
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(CALLEE_FIRST_WAIT_MS.min)
  @Max(CALLEE_FIRST_WAIT_MS.max)
  calleeFirstWaitMs?: number;

  @ApiPropertyOptional({
    enum: IVR_ACTIONS,
    default: 'navigate',
    description:
      'When an automated menu answers ("For sales, press 1"; answer_outcome ivr): navigate — ' +
      'the model is told it hears a menu and picks the option that reaches a person with ' +
      'press_keys — or hang_up. (A voicemail gets voicemailMessage after its beep, or the ' +
      'hang-up when there is none; a full mailbox and a fax are always hung up on.)',
  })
  @IsOptionalNotNull()
  @IsIn(IVR_ACTIONS)
  onIvr?: IvrAction;

  @ApiPropertyOptional({
    enum: SCREENING_ACTIONS,
    default: 'announce',
    description:
      'When a call-screening assistant answers ("Please state your name and the reason for ' +
      'your call"; answer_outcome call_screening): announce — the model is told to say briefly ' +
      'who calls, for whom and why, and wait for the person — or hang_up',
  })
  @IsOptionalNotNull()
  @IsIn(SCREENING_ACTIONS)
  onCallScreening?: ScreeningAction;

  @ApiPropertyOptional({
    type: [AnalysisFieldDto],
    default: [],
    description: `Values the post-call analysis extracts from each conversation (at most ${MAX_ANALYSIS_FIELDS}, names unique)`,
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_ANALYSIS_FIELDS)
  @ArrayUnique((field: AnalysisFieldDto | null) => field?.name, {
    message: 'analysisFields must not repeat a name',
  })
  @ValidateNested({ each: true })
  @Type(() => AnalysisFieldDto)
  analysisFields?: AnalysisFieldDto[];

  @ApiPropertyOptional({
    example: false,
    description:
      'true makes this the organization’s default agent (the one a batch without agentId ' +
      'uses), in place of the current one. An organization’s first agent is always its ' +
      'default, whatever is sent.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  isDefault?: boolean;
}

/**
 * A PATCH: only the fields sent change. null clears a nullable field and is refused for the
 * others (PartialType with skipNullProperties false keeps null subject to each field's rules).
 */
export class UpdateAgentDto extends PartialType(CreateAgentDto, { skipNullProperties: false }) {
  @ApiPropertyOptional({
    example: true,
    description:
      'true makes this agent the organization’s default in place of the current one (one ' +
      'transaction: there is never zero or two). false on the default agent answers 409: move ' +
      'the default by making another agent default. false on another agent changes nothing.',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  declare isDefault?: boolean;
}
