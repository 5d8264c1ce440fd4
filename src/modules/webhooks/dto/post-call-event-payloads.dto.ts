import { ApiProperty } from '@nestjs/swagger';
import type * as contracts from '@app/contracts';
import { CALL_SENTIMENTS } from '@app/contracts';
import { AT, CallEventBase, nullableString } from './call-event-payloads.dto';

/* OpenAPI models of the events that follow a call: its recording, summary and analysis. */

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
    additionalProperties: {
      oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
      nullable: true,
    },
    example: { callback_day: 'Tuesday', budget: 300 },
    description:
      "Values of the campaign's analysis fields, by name; null when the call did not tell",
  })
  extracted_data!: Record<string, string | number | boolean | null>;
}
