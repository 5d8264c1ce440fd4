import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQuery } from '../../../common/page.query';
import { IsBoundedSearchPattern, SEARCH_PATTERN_RULES } from '../../../common/search-pattern';

export class ListBatchesQuery extends PageQuery {
  @ApiPropertyOptional({
    description: 'Case-insensitive text matched against batchName or queue_status',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}

export const PHONE_LOG_FILTER_FIELDS = [
  'callStatus',
  'callDuration',
  'recordingUrl',
  'transcript',
  'requestUUID',
  'answerOutcome',
] as const;

export class BatchDetailsQuery extends PageQuery {
  @ApiPropertyOptional({
    example: '{"answerOutcome":"voicemail"}',
    description: `JSON object keyed by phone-log fields (${PHONE_LOG_FILTER_FIELDS.join(', ')}); matched against each call record's latest phone log (null: the field is null there).`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(2_000)
  filter?: string;

  @ApiPropertyOptional({
    example: 'createdAt',
    default: 'createdAt',
    description:
      'createdAt, phoneNumber, callStatus, turnLatencyP50 / turnLatencyP95 (the latest phone ' +
      "log's reply latency, its turnLatency, computed per record on request: slower than the " +
      'other keys on large batches; records without one last), or the name of a contact field',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_ .-]{1,64}$/, { message: 'sortBy must be a field name' })
  sortBy?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  sortOrder: 'asc' | 'desc' = 'asc';

  @ApiPropertyOptional({
    example: 'smith|jones',
    description: `Case-insensitive POSIX regular expression over every string contact field; an invalid pattern answers 400. ${SEARCH_PATTERN_RULES}`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsBoundedSearchPattern()
  search?: string;
}
