import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type * as contracts from '@app/contracts';
import {
  ANSWERED_BY,
  CALL_ENDED_BY,
  CALL_EVENT_TYPES,
  CALL_FAILURE_REASONS,
  CALL_SENTIMENTS,
  WEBHOOK_TEST_EVENT_TYPE,
} from '@app/contracts';

/*
 * OpenAPI models of the delivered event payloads (libs/contracts/src/webhook-events.ts is the
 * source of truth: each class implements its interface, so the two cannot drift apart).
 */

const ID = '65f1c0ffee0123456789abcd';
const AT = '2026-11-22T10:00:00.000Z';
const nullableString = (description: string, example: string) => ({
  type: String,
  nullable: true,
  description,
  example,
});

/** Fields every call event's `data` carries. */
export class CallEventBase implements contracts.CallEventBase {
  @ApiProperty({
    example: ID,
    description: 'The call (one dial attempt); stable across its events',
  })
  call_id!: string;

  @ApiProperty({
    example: 3,
    minimum: 1,
    description:
      'Position among the events of the same call: 1, 2, 3… without gaps, in commit order. ' +
      'Deliveries may arrive out of order (retries): sort or drop stale ones by sequence.',
  })
  sequence!: number;

  @ApiProperty({ example: AT, description: 'When the change happened (not when delivered)' })
  occurred_at!: string;

  @ApiProperty({
    example: '3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e',
    description: 'Provider call UUID',
  })
  request_uuid!: string;

  @ApiProperty({ example: ID, description: 'The batch (campaign) of the call' })
  batch_id!: string;

  @ApiProperty({ example: ID, description: 'The contact row that was dialed' })
  call_record_id!: string;

  @ApiProperty({
    example: 1,
    minimum: 1,
    description: '1 for the first dial, 2 for the first retry…',
  })
  attempt!: number;

  @ApiProperty({ enum: ['outbound'], example: 'outbound' })
  direction!: 'outbound';

  @ApiProperty({ example: '+14155550100', description: 'Caller ID, E.164' })
  from_number!: string;

  @ApiProperty({ example: '+14155551234', description: 'Dialed number, E.164' })
  to_number!: string;

  @ApiProperty(nullableString('Voice agent of the call', ID))
  agent_id!: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { name: 'Jane', plan: 'gold' },
    description: "The contact's CSV columns, as imported",
  })
  variables!: Record<string, string>;
}

export class CallStartedEventData extends CallEventBase implements contracts.CallStartedEventData {
  @ApiProperty({ example: 'provider_two', description: 'Telephony provider carrying the call' })
  provider!: string;
}

const ANSWERED_BY_PROPERTY = { enum: ANSWERED_BY, example: 'human' } as const;

export class CallAnsweredEventData
  extends CallEventBase
  implements contracts.CallAnsweredEventData
{
  @ApiProperty({ example: AT })
  answered_at!: string;

  @ApiProperty({ ...ANSWERED_BY_PROPERTY, description: 'Answering-machine detection result' })
  answered_by!: contracts.AnsweredBy;

  @ApiProperty({ example: 7, description: 'Seconds from call.started to the answer' })
  ring_duration_seconds!: number;
}

export class CallCompletedEventData
  extends CallEventBase
  implements contracts.CallCompletedEventData
{
  @ApiProperty({ enum: ['completed'], example: 'completed' })
  status!: 'completed';

  @ApiProperty({ example: AT })
  started_at!: string;

  @ApiProperty(nullableString('When the callee answered', AT))
  answered_at!: string | null;

  @ApiProperty({ example: AT })
  ended_at!: string;

  @ApiProperty({ example: 184, description: 'Talk time in whole seconds' })
  duration_seconds!: number;

  @ApiProperty(ANSWERED_BY_PROPERTY)
  answered_by!: contracts.AnsweredBy;

  @ApiProperty({
    enum: CALL_ENDED_BY,
    example: 'callee',
    description: 'Who or what ended the call',
  })
  ended_by!: contracts.CallEndedBy;

  @ApiProperty({
    example: true,
    description: 'Whether call.recording.available and the analysis events will follow',
  })
  recording_expected!: boolean;
}

export class CallFailedEventData extends CallEventBase implements contracts.CallFailedEventData {
  @ApiProperty({ enum: ['failed'], example: 'failed' })
  status!: 'failed';

  @ApiProperty({
    enum: CALL_FAILURE_REASONS,
    example: 'no_answer',
  })
  failure_reason!: contracts.CallFailureReason;

  @ApiProperty(nullableString("The provider's own status or error text", 'no-answer'))
  provider_status!: string | null;

  @ApiProperty({ example: AT })
  ended_at!: string;

  @ApiProperty({ example: 0, description: 'Talk time if it connected before breaking off' })
  duration_seconds!: number;

  @ApiProperty({ example: true, description: 'Whether the contact will be dialed again' })
  will_retry!: boolean;

  @ApiProperty(nullableString('When the next attempt is planned', AT))
  next_attempt_at!: string | null;
}

export class CallTransferredEventData
  extends CallEventBase
  implements contracts.CallTransferredEventData
{
  @ApiProperty({ example: AT })
  transferred_at!: string;

  @ApiProperty({ example: '+14155559876', description: 'E.164 number or SIP URI' })
  transfer_to!: string;

  @ApiProperty({
    enum: ['cold', 'warm'],
    example: 'warm',
    description: 'cold: the agent leaves at once; warm: it briefs the new party first',
  })
  transfer_type!: 'cold' | 'warm';

  @ApiProperty(nullableString('Why the agent transferred, when known', 'Asked for a human'))
  reason!: string | null;
}

export class CallRecordingAvailableEventData
  extends CallEventBase
  implements contracts.CallRecordingAvailableEventData
{
  @ApiProperty({ example: 'https://recordings.example.com/r/1.mp3' })
  recording_url!: string;

  @ApiProperty(nullableString('When recording_url stops working; null: never', AT))
  expires_at!: string | null;

  @ApiProperty({ example: 184 })
  recording_duration_seconds!: number;

  @ApiProperty({ example: 'audio/mpeg' })
  content_type!: string;

  @ApiProperty({ enum: ['mono', 'dual'], example: 'dual' })
  channels!: 'mono' | 'dual';
}

export class TranscriptTurn implements contracts.TranscriptTurn {
  @ApiProperty({ enum: ['agent', 'callee'], example: 'agent' })
  role!: 'agent' | 'callee';

  @ApiProperty({ example: 'Hi Jane, this is Ava from Acme.' })
  text!: string;

  @ApiProperty({ example: 1.2, description: 'Seconds from the answer' })
  start_seconds!: number;
}

export class CallSummaryGeneratedEventData
  extends CallEventBase
  implements contracts.CallSummaryGeneratedEventData
{
  @ApiProperty({ example: 'Jane wants a callback next Tuesday about the gold plan.' })
  summary!: string;

  @ApiProperty({ example: 'Agent: Hi Jane…\nCallee: Hello…', description: 'One line per turn' })
  transcript!: string;

  @ApiProperty({ type: [TranscriptTurn] })
  transcript_turns!: TranscriptTurn[];

  @ApiProperty(nullableString('BCP 47 language of the conversation', 'en-US'))
  language!: string | null;
}

export class CallAnalysisCompletedEventData
  extends CallEventBase
  implements contracts.CallAnalysisCompletedEventData
{
  @ApiProperty({
    type: Boolean,
    nullable: true,
    example: true,
    description: 'Whether the call reached its goal; null: undecided',
  })
  successful!: boolean | null;

  @ApiProperty({ enum: CALL_SENTIMENTS, example: 'positive' })
  sentiment!: contracts.CallSentiment;

  @ApiProperty(nullableString('Disposition given to the call', 'callback_requested'))
  disposition!: string | null;

  @ApiProperty({ example: false, description: 'The callee asked not to be called again' })
  opted_out!: boolean;

  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    example: { callback_day: 'Tuesday', budget: 300 },
    description: "Values of the campaign's analysis fields, by name",
  })
  extracted_data!: Record<string, string | number | boolean | null>;
}

export class WebhookTestEventData implements contracts.WebhookTestEventData {
  @ApiProperty({ example: ID })
  webhook_id!: string;

  @ApiProperty({ example: 'This is a test event from Switchboard.' })
  message!: string;

  @ApiProperty({ example: AT })
  occurred_at!: string;
}

/** Each event type and its `data` model, for the documentation. */
export const EVENT_DATA_MODELS = {
  'call.started': CallStartedEventData,
  'call.answered': CallAnsweredEventData,
  'call.completed': CallCompletedEventData,
  'call.failed': CallFailedEventData,
  'call.transferred': CallTransferredEventData,
  'call.recording.available': CallRecordingAvailableEventData,
  'call.summary.generated': CallSummaryGeneratedEventData,
  'call.analysis.completed': CallAnalysisCompletedEventData,
  [WEBHOOK_TEST_EVENT_TYPE]: WebhookTestEventData,
} satisfies Record<contracts.WebhookEventType, unknown>;

export class WebhookEventEnvelope {
  @ApiProperty({
    enum: [...CALL_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE],
    example: 'call.completed',
    description: 'The event type; decides the schema of data',
  })
  type!: contracts.WebhookEventType;

  @ApiProperty({ example: AT, description: 'When the event was raised; the same on every retry' })
  timestamp!: string;

  @ApiProperty({
    description:
      'The payload of the type: ' +
      Object.entries(EVENT_DATA_MODELS)
        .map(([type, model]) => `${type} → ${model.name}`)
        .join(', '),
    oneOf: Object.values(EVENT_DATA_MODELS).map((model) => ({ $ref: getSchemaPath(model) })),
  })
  data!: contracts.WebhookEvent['data'];
}

/** Every model above, for @ApiExtraModels. */
export const WEBHOOK_EVENT_MODELS = [WebhookEventEnvelope, ...Object.values(EVENT_DATA_MODELS)];
