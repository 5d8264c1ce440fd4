import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../../../common/page.query';

export class ListAgentsQuery extends PageQuery {
  @ApiPropertyOptional({
    example: 'renewal',
    maxLength: 200,
    description:
      'Case-insensitive text the agent name must contain (taken literally: % and _ are no ' +
      'wildcards)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}
