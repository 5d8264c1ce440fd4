import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { PageQuery } from '../../../common/page.query';

export class ListKnowledgeBasesQuery extends PageQuery {
  @ApiPropertyOptional({
    example: 'faq',
    maxLength: 200,
    description:
      'Case-insensitive text the name must contain (taken literally: % and _ are no wildcards)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}

export const MAX_SEARCH_RESULTS = 50;

export class SearchKnowledgeBaseQuery {
  @ApiProperty({
    example: 'What time do you open on Sunday?',
    maxLength: 500,
    description:
      'What to look for, as a customer would ask it: passages holding any of its words (in the ' +
      'base’s language: "refunds" finds "refund"; quotes and signs are plain punctuation) and ' +
      'passages close in meaning are found',
  })
  @IsString()
  @Length(1, 500)
  @Matches(/\S/, { message: 'q must not be blank' })
  q!: string;

  @ApiPropertyOptional({ default: 5, minimum: 1, maximum: MAX_SEARCH_RESULTS })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_SEARCH_RESULTS)
  limit: number = 5;
}
