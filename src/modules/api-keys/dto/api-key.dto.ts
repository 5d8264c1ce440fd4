import { ApiProperty } from '@nestjs/swagger';

export class ApiKeyDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'CRM integration' })
  name!: string;

  @ApiProperty({ example: 'sb_3f2a9c0d1e4b5a67', description: 'The visible start of the key' })
  prefix!: string;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-22T11:00:00.000Z', nullable: true, type: String })
  lastUsedAt!: string | null;
}

export class CreatedApiKeyDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'CRM integration' })
  name!: string;

  @ApiProperty({
    example: 'sb_3f2a9c0d1e4b5a67_Jx1…',
    description:
      'Send as the x-api-key header. Shown in this response only: it is stored as a hash.',
  })
  key!: string;

  @ApiProperty({ example: 'sb_3f2a9c0d1e4b5a67' })
  prefix!: string;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;
}
