import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'CRM integration', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name!: string;
}
