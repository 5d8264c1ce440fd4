import { ApiProperty, PickType } from '@nestjs/swagger';
import { ImportReportDto, ImportRowErrorDto } from '../../contacts/dto/import-report.dto';
import { MAX_REPORTED_ERRORS } from '../../contacts/import-report';
import { DNC_TEXT_MAX } from '../dnc-row';

export class DncImportRowErrorDto extends PickType(ImportRowErrorDto, ['phoneNumber', 'field']) {
  @ApiProperty({
    example: 3,
    description:
      '1-based position among the data rows: for a CSV the data row counted without the header ' +
      'row and blank lines, for JSON the array index + 1',
  })
  row!: number;

  @ApiProperty({
    enum: ['missing_phone_number', 'invalid_number', 'invalid_field'],
    description:
      'missing_phone_number: no phoneNumber, or an entry that is not an object, string or ' +
      'number; invalid_number: not a valid number with its country code; invalid_field: a ' +
      `type, reason or source that is not text, holds a NUL, or is longer than ${DNC_TEXT_MAX} ` +
      'characters (named in `field`)',
  })
  reason!: string;
}

export class DncImportReportDto extends PickType(ImportReportDto, ['received', 'errorsTruncated']) {
  @ApiProperty({ example: 990, description: 'Numbers added to the list' })
  imported!: number;

  @ApiProperty({
    example: 7,
    description:
      'Rows whose number was on the list already, or came earlier in this file: nothing changed',
  })
  alreadyListed!: number;

  @ApiProperty({
    example: 3,
    description: 'Invalid rows, not imported: received = imported + alreadyListed + rejected',
  })
  rejected!: number;

  @ApiProperty({
    type: [DncImportRowErrorDto],
    description: `One entry per invalid row, in row order: the first ${MAX_REPORTED_ERRORS}`,
  })
  errors!: DncImportRowErrorDto[];
}
