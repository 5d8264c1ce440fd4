import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQuery } from '../../../common/page.query';

export class ListDncQuery extends PageQuery {
  @ApiPropertyOptional({
    example: '4155551234',
    description:
      'Matches entries whose phone number contains the digits of the text, or whose type ' +
      'contains the text (case-insensitive)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;
}

export class CheckDncQuery {
  @ApiProperty({
    example: '14155551234',
    description:
      'With country code; `+` optional (send it URL-encoded as %2B); spaces, dots, dashes and ' +
      'parentheses are ignored (`+1 (415) 555-1234`). Checked in E.164. Invalid answers 400.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  phoneNumber!: string;

  @ApiPropertyOptional({
    enum: ['entry'],
    description:
      '`entry` adds the whole entry (`data.entry`) when the number is listed; without it the ' +
      'answer is { phoneNumber, onDncList, entryId? } only',
  })
  @IsOptional()
  @IsIn(['entry'])
  include?: 'entry';
}
