import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PaginationDto } from '../../../common/page.query';

export class DncEntryDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: '+14155551234', description: 'E.164' })
  phoneNumber!: string;

  @ApiProperty({ type: String, nullable: true, example: 'customer_request' })
  type!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'crm-export-2026-11',
    description: 'Where an imported number came from (the `source` column); null otherwise',
  })
  source!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '65f1c0ffee0123456789abce',
    description: 'null once the batch is deleted for good',
  })
  batchId!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '65f1c0ffee0123456789abcf' })
  callRecordId!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e' })
  requestUUID!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'https://recordings.example.com/r/1.mp3' })
  recordingUrl!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Please stop calling me.' })
  transcript!: string | null;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;
}

export class DncListDto {
  @ApiProperty({ type: [DncEntryDto], description: 'Newest first' })
  entries!: DncEntryDto[];

  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}

export class DncCheckDto {
  @ApiProperty({ example: '+14155551234', description: 'The number checked, in E.164' })
  phoneNumber!: string;

  @ApiProperty({ example: true })
  onDncList!: boolean;

  @ApiPropertyOptional({
    example: '65f1c0ffee0123456789abcd',
    description: 'The entry that lists the number; absent when it is not listed',
  })
  entryId?: string;

  @ApiPropertyOptional({
    type: DncEntryDto,
    description:
      'The whole entry: sent only with `include=entry`, and only when the number is listed',
  })
  entry?: DncEntryDto;
}
