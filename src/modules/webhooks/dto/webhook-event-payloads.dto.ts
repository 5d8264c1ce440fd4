import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type * as contracts from '@app/contracts';
import { CALL_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE } from '@app/contracts';
import {
  AT,
  CallAnsweredEventData,
  CallCompletedEventData,
  CallFailedEventData,
  CallStartedEventData,
  CallTransferredEventData,
  ID,
} from './call-event-payloads.dto';
import {
  CallAnalysisCompletedEventData,
  CallRecordingAvailableEventData,
  CallSummaryGeneratedEventData,
} from './post-call-event-payloads.dto';

/* The envelope of every delivered event, and which `data` model goes with which type. */

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
