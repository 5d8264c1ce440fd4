import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsBoundedSearchPattern, SEARCH_PATTERN_RULES } from '../../../common/search-pattern';
import { PHONE_LOG_FILTER_FIELDS } from './batch-queries';
import { BatchSummaryDto } from './batch.dto';

/** How a record's last call ended, in callStatus words, that re-dial may select it by. */
export const REDIAL_OUTCOMES = ['no-answer', 'busy', 'voicemail', 'failed', 'completed'] as const;
export type RedialOutcome = (typeof REDIAL_OUTCOMES)[number];

/** What a re-dial selects without `outcomes`: every unanswered ending, never `completed`. */
export const DEFAULT_REDIAL_OUTCOMES: readonly RedialOutcome[] = [
  'no-answer',
  'busy',
  'voicemail',
  'failed',
];

export class RedialBatchDto {
  @ApiPropertyOptional({
    type: [String],
    enum: REDIAL_OUTCOMES,
    example: ['no-answer', 'busy'],
    description:
      'The contacts whose last call ended so (its callStatus, as batch details show it). Absent: ' +
      'no-answer, busy, voicemail and failed. `completed` (answered) contacts are called again ' +
      'only when named here.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(REDIAL_OUTCOMES.length)
  @ArrayUnique()
  @IsIn(REDIAL_OUTCOMES, { each: true })
  outcomes?: RedialOutcome[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    example: { answerOutcome: 'voicemail' },
    description: `Only the contacts whose latest phone log matches, as batch details' \`filter\` (an object here): keyed by ${PHONE_LOG_FILTER_FIELDS.join(', ')}; null matches a null field.`,
  })
  @IsOptional()
  @IsObject()
  filter?: Record<string, unknown>;

  @ApiPropertyOptional({
    example: 'smith|jones',
    description: `Only the contacts a case-insensitive POSIX regular expression finds in a string contact field, as batch details' \`search\`. ${SEARCH_PATTERN_RULES}`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsBoundedSearchPattern()
  search?: string;
}

export class RedialResultDto {
  @ApiProperty({
    example: 42,
    description:
      'Contacts made due again by this request, each as a new attempt series (0: none matched, ' +
      'e.g. the same request again while the first series is still under way)',
  })
  redialed!: number;

  @ApiProperty({ type: BatchSummaryDto, description: 'The batch after the re-dial' })
  batch!: BatchSummaryDto;
}
