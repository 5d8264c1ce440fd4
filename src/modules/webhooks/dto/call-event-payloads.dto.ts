import { ApiProperty } from '@nestjs/swagger';
import type * as contracts from '@app/contracts';
import {
  ANSWER_OUTCOMES,
  ANSWERED_BY,
  CALL_ENDED_BY,
  CALL_FAILURE_REASONS,
  FAILED_DEPENDENCIES,
} from '@app/contracts';

/*
 * OpenAPI models of the delivered event payloads (libs/contracts/src/webhook-events.ts is the
 * source of truth: each class implements its interface, so the two cannot drift apart). This
 * file: the fields every call event carries and the events of the call itself; the post-call
 * events are in post-call-event-payloads.dto.ts, the envelope in webhook-event-payloads.dto.ts.
 */

export const ID = '65f1c0ffee0123456789abcd';
export const AT = '2026-11-22T10:00:00.000Z';
export const nullableString = (description: string, example: string) => ({
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

const ANSWER_OUTCOME_PROPERTY = {
  type: String,
  enum: ANSWER_OUTCOMES,
  nullable: true,
  example: 'human',
  description:
    "Who or what answered, as the voice agent heard it in the first seconds (the greeting's " +
    'words and length, a beep, a fax tone): human, voicemail, mailbox_full, ivr, ' +
    "call_screening, fax or uncertain. voicemail gets the agent's voicemail message after the " +
    'beep; mailbox_full and fax are hung up on (both end the attempt as voicemail, answered_by ' +
    'machine); the others get the conversation. Null when no media stream heard the call',
} as const;
const ANSWER_OUTCOME_MS_PROPERTY = {
  type: Number,
  nullable: true,
  example: 1200,
  description: "How long after the stream's first audio the answer_outcome was known",
} as const;

export class CallAnsweredEventData
  extends CallEventBase
  implements contracts.CallAnsweredEventData
{
  @ApiProperty({ example: AT })
  answered_at!: string;

  @ApiProperty({
    ...ANSWERED_BY_PROPERTY,
    description:
      'Answering-machine detection result as known at the answer. Detection runs beside the ' +
      'call (the callee is never kept waiting for it), so it is often `unknown` here; ' +
      'call.completed and call.failed carry the verdict',
  })
  answered_by!: contracts.AnsweredBy;

  @ApiProperty({ example: 7, description: 'Seconds from call.started to the answer' })
  ring_duration_seconds!: number;
}

const FAILED_DEPENDENCY_PROPERTY = {
  enum: FAILED_DEPENDENCIES,
  nullable: true,
  type: String,
  example: null,
  description:
    'When the agent ended the call because a service failed: stt (speech-to-text), tts ' +
    '(text-to-speech), llm (the language model), telephony (the provider API) or media (the ' +
    "call's audio stream); null otherwise",
};

export class TurnLatencySummary implements contracts.TurnLatencySummary {
  @ApiProperty({ example: 6, description: 'Replies that answered a caller turn' })
  turns!: number;

  @ApiProperty({ example: 820, description: 'Median end of speech → first audio, in ms' })
  p50_ms!: number;

  @ApiProperty({ example: 1_240, description: '95th percentile, in ms' })
  p95_ms!: number;
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
    description:
      'Who or what ended the call. service_failure: a service the agent depends on failed for ' +
      'good (after its retries and fallback engine) and the agent apologised and hung up',
  })
  ended_by!: contracts.CallEndedBy;

  @ApiProperty(FAILED_DEPENDENCY_PROPERTY)
  failed_dependency!: contracts.FailedDependency | null;

  @ApiProperty({
    type: TurnLatencySummary,
    nullable: true,
    description:
      "How long the callee waited for the agent's replies (end of their speech → the reply's " +
      'first audio) over the call; null when no reply answered a caller turn',
  })
  turn_latency!: TurnLatencySummary | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { account_number: '12345678' },
    description:
      'What the callee typed on the keypad when the agent asked (its collect_digits tool), by ' +
      "the entry's name; {} when nothing was. With the agent's privateDigits this is the only " +
      'place the digits go: the model and the transcript hear only how many were typed, batch ' +
      'details show a mask, and they are kept sealed at rest (AES-256-GCM) until this ' +
      'delivery is signed and sent',
  })
  collected_digits!: Record<string, string>;

  @ApiProperty(ANSWER_OUTCOME_PROPERTY)
  answer_outcome!: contracts.AnswerOutcome | null;

  @ApiProperty(ANSWER_OUTCOME_MS_PROPERTY)
  answer_outcome_ms!: number | null;

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

  @ApiProperty(FAILED_DEPENDENCY_PROPERTY)
  failed_dependency!: contracts.FailedDependency | null;

  @ApiProperty(ANSWER_OUTCOME_PROPERTY)
  answer_outcome!: contracts.AnswerOutcome | null;

  @ApiProperty(ANSWER_OUTCOME_MS_PROPERTY)
  answer_outcome_ms!: number | null;
}

export class CallTransferredEventData
  extends CallEventBase
  implements contracts.CallTransferredEventData
{
  @ApiProperty({
    example: AT,
    description:
      'When the new party answered: the event is raised then, never for a transfer no one ' +
      'answered (the caller is back with the agent)',
  })
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

  @ApiProperty(
    nullableString(
      'warm: the brief the agent wrote, read to the new party before they took the call; null for a cold transfer',
      'Grace Hopper wants to move her delivery to Friday; her address is confirmed.',
    ),
  )
  summary!: string | null;
}
