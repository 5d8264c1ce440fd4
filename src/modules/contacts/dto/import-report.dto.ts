import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_REPORTED_ERRORS } from '../import-report';

export class ImportRowErrorDto {
  @ApiProperty({
    example: 3,
    description:
      '1-based position among the data rows: the contacts array index + 1, or for a CSV the ' +
      'data row counted without the header row and blank lines',
  })
  row!: number;

  @ApiPropertyOptional({
    example: '+14155551234',
    description:
      'E.164 when the number is valid; as sent (trimmed, at most 40 characters) when not',
  })
  phoneNumber?: string;

  @ApiProperty({
    enum: [
      'invalid_number',
      'duplicate_in_batch',
      'on_dnc_list',
      'missing_phone_number',
      'invalid_field',
    ],
    description:
      'duplicate_in_batch: the number is already in the batch or earlier in this import; ' +
      "on_dnc_list: the number is on the organization's do-not-call list",
  })
  reason!: string;

  @ApiPropertyOptional({ example: '_id', description: 'The offending field of invalid_field' })
  field?: string;
}

export class ImportReportDto {
  @ApiProperty({ example: 1000, description: 'Data rows read' })
  received!: number;

  @ApiProperty({ example: 997, description: 'Call records added to the batch' })
  imported!: number;

  @ApiProperty({ example: 3, description: 'Rows not added: received = imported + rejected' })
  rejected!: number;

  @ApiProperty({
    type: [ImportRowErrorDto],
    description: `One entry per rejected row, in row order: the first ${MAX_REPORTED_ERRORS}`,
  })
  errors!: ImportRowErrorDto[];

  @ApiProperty({ example: false, description: 'True when more rows were rejected than listed' })
  errorsTruncated!: boolean;
}
