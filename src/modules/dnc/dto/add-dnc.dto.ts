import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { IsObjectId } from '../../../common/is-object-id.validator';

export class AddDncDto {
  @ApiProperty({
    example: '+14155551234',
    description:
      'With country code; `+` optional; stored in E.164. Must be the number of the call record ' +
      'that `requestUUID` identifies: another number answers 400.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  phoneNumber!: string;

  @ApiProperty({
    example: '65f1c0ffee0123456789abcd',
    description: 'Batch of the call that triggered the request; must exist in the workspace',
  })
  @IsObjectId()
  batchId!: string;

  @ApiProperty({
    example: '3f0c8a52-5a8e-4f3b-9a39-0d7d3f1c2b9e',
    description: "Call identifier of a phone log of that batch (the call record's attempt)",
  })
  @IsUUID('all', { message: 'requestUUID must be a UUID' })
  requestUUID!: string;

  @ApiPropertyOptional({
    example: 'customer_request',
    maxLength: 100,
    description: 'Classification of the entry, for example a reason category',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  type?: string;
}
