import {
  ANSWER_OUTCOMES,
  type AnswerOutcome,
  FAILED_DEPENDENCIES,
  type FailedDependency,
} from '@app/contracts';
import type { SessionEndedBy } from '../../call-records/call-records.schema';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { STATUS_REASONS, type StatusReason } from '../batches.schema';
import { RetryPolicyDto } from './retry-policy.dto';

export class TurnLatencyDto {
  @ApiProperty({
    example: 930,
    description: "End of the callee's speech → the reply's first audio, ms",
  })
  totalMs!: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 180,
    description: 'Speech recognition, ms',
  })
  recognitionMs!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 450,
    description: "The model's first token, ms",
  })
  modelMs!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 300,
    description: 'Synthesis of the first audio, ms',
  })
  synthesisMs!: number | null;
}

export class CallTurnLatencyDto {
  @ApiProperty({ example: 6, description: 'Replies that answered a callee turn' })
  turns!: number;

  @ApiProperty({ example: 820, description: 'Median reply latency, ms' })
  p50Ms!: number;

  @ApiProperty({ example: 1240, description: '95th percentile reply latency, ms' })
  p95Ms!: number;
}

export class PhoneLogTurnDto {
  @ApiProperty({ enum: ['agent', 'callee'] })
  role!: 'agent' | 'callee';

  @ApiProperty({ example: 'Hello, this is Ada from Acme.' })
  text!: string;

  @ApiProperty({ example: '2026-11-22T10:00:05.000Z' })
  startedAt!: string;

  @ApiPropertyOptional({
    type: TurnLatencyDto,
    description:
      'On an agent turn that answered the callee: how long they waited for it, and where the time went',
  })
  latency?: TurnLatencyDto;
}

export class PhoneLogDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The call id the DNC add operation accepts as requestUUID',
  })
  requestUUID!: string;

  @ApiProperty({ example: 'completed' })
  callStatus!: string;

  @ApiProperty({ example: 63, description: 'Seconds' })
  callDuration!: number;

  @ApiPropertyOptional({ type: String, nullable: true })
  recordingUrl!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The conversation, one `Agent: …` / `Callee: …` line per turn',
  })
  transcript!: string | null;

  @ApiProperty({
    type: [PhoneLogTurnDto],
    description: 'The conversation turn by turn, as it happened',
  })
  turns!: PhoneLogTurnDto[];

  @ApiProperty({
    type: CallTurnLatencyDto,
    nullable: true,
    description: "The call's reply latency over its turns; null when no reply answered the callee",
  })
  turnLatency!: CallTurnLatencyDto | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Post-call summary (null until generated)',
    example: 'The callee confirmed the appointment for Tuesday morning.',
  })
  summary!: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      "Post-call analysis (null until done): successful, sentiment, disposition, optedOut and the agent's analysisFields by name",
    example: {
      successful: true,
      sentiment: 'positive',
      disposition: 'interested',
      optedOut: false,
      appointment_booked: true,
    },
  })
  analysis!: Record<string, unknown> | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '+14155550199',
    description:
      'The number the agent transferred the call to (its transferNumber; call.transferred), null when it was not transferred. The call stays in-progress with that party and completes when they hang up',
  })
  transferredTo!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-11-22T10:01:30.000Z',
    description:
      'When the new party answered the transfer (null while it rings, or when no one answered)',
  })
  transferredAt!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: ['agent', 'max_duration', 'service_failure', 'drain', 'voicemail', 'system'],
    example: null,
    description:
      'When the agent ended the call itself, why: agent (its goodbye, end_call, an opt-out), ' +
      "max_duration (the agent's maxCallSeconds), service_failure (a speech service, the model, " +
      'the provider API or the media stream failed for good: see failedDependency), drain (the ' +
      'process serving it shut down; the contact is called again), voicemail (after its ' +
      'message), system; null when the callee or the provider ended it',
  })
  endedBy!: SessionEndedBy | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: FAILED_DEPENDENCIES,
    example: null,
    description: 'With endedBy service_failure: stt, tts, llm, telephony or media; else null',
  })
  failedDependency!: FailedDependency | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: ANSWER_OUTCOMES,
    example: 'human',
    description:
      'Who or what answered, as the voice agent heard it in the first seconds: human, ' +
      'voicemail, mailbox_full, ivr, call_screening, fax or uncertain (call.completed and ' +
      'call.failed carry it as answer_outcome); null when no media stream heard the call',
  })
  answerOutcome!: AnswerOutcome | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 1200,
    description: "How long after the stream's first audio answerOutcome was known",
  })
  answerOutcomeMs!: number | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { account_number: '12345678', pin: '••••' },
    description:
      'What the callee typed on the keypad when the agent asked (its collect_digits tool), by ' +
      "the entry's name; {} when nothing was (call.completed carries it as collected_digits). " +
      'An agent with privateDigits has its entries sealed at rest (AES-256-GCM): here each ' +
      'shows as a mask of as many • as digits were typed; only call.completed carries the digits',
  })
  collectedDigits!: Record<string, string>;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;
}

@ApiSchema({
  description:
    'A call record: its number, its dynamic contact fields (strings) and its call attempts',
})
export class CallRecordDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: '+14155551234', description: 'E.164' })
  phoneNumber!: string;

  @ApiPropertyOptional({
    type: [PhoneLogDto],
    description: 'Present when call attempts exist, oldest first',
  })
  phoneLogs?: PhoneLogDto[];

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;

  /** Dynamic contact fields (name, account_id, priority, …). */
  [field: string]: unknown;
}

export class BatchDetailsDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  batchId!: string;

  @ApiProperty({ example: 'November renewals' })
  batchName!: string;

  @ApiProperty({ enum: ['active', 'paused', 'completed'] })
  batchStatus!: string;

  @ApiProperty({
    enum: STATUS_REASONS,
    nullable: true,
    type: String,
    example: null,
    description:
      'Why the batch is not dialing normally: null while all is well; `cancelled` (stopped by cancel, now completed), `failure_rate` (paused by the dialer: most recent calls failed), `no_agent` (paused: no voice agent to speak), `no_calling_number` (paused: none of its numbers is left), `end_at_reached` (completed at its endAt: contacts still waiting were closed).',
  })
  statusReason!: StatusReason | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '65f1c0ffee0123456789abcd',
    description:
      'The voice agent named at creation; null: the organization’s default agent speaks (also ' +
      'once the named agent was deleted)',
  })
  agentId!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-23T14:00:00.000Z',
    description: 'Nothing is dialed before it; null: dialing started at once',
  })
  startAt!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-27T22:00:00.000Z',
    description: 'No call is placed from it on (statusReason `end_at_reached` once it passed)',
  })
  endAt!: string | null;

  @ApiProperty({
    type: RetryPolicyDto,
    nullable: true,
    description: 'The per-outcome retry budgets given at creation; null: none',
  })
  retryPolicy!: RetryPolicyDto | null;

  @ApiProperty({ example: 1 })
  page!: number;

  @ApiProperty({ example: 10 })
  limit!: number;

  @ApiProperty({ example: 1200, description: 'Calls in the batch matching the filter and search' })
  total!: number;

  @ApiProperty({ example: 120 })
  totalPages!: number;

  @ApiProperty({
    type: 'array',
    items: {
      allOf: [
        { $ref: '#/components/schemas/CallRecordDto' },
        { type: 'object', additionalProperties: { type: 'string' } },
      ],
    },
  })
  data!: CallRecordDto[];
}
