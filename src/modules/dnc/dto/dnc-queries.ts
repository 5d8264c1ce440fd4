import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
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
      'With country code; `+` optional (send it URL-encoded as %2B). Invalid answers 400.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  phoneNumber!: string;
}
