import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Length, Matches, Max, Min } from 'class-validator';

/** The query of a signed download URL; every field is covered by the signature. */
export class DownloadQuery {
  @ApiProperty({ example: 1767225600, description: 'Expiry, Unix seconds' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2 ** 40)
  expires!: number;

  @ApiProperty({ example: 'pricing.pdf', maxLength: 255, description: 'File name to save as' })
  @IsString()
  @Length(1, 255)
  name!: string;

  @ApiProperty({ example: 'application/pdf', maxLength: 200, description: 'Media type served' })
  @IsString()
  @Length(1, 200)
  @Matches(/^[\w.+-]+\/[\w.+-]+$/, { message: 'type must be a media type' })
  type!: string;

  @ApiProperty({ example: 'kJ3v…', maxLength: 100, description: 'HMAC-SHA256, base64url' })
  @IsString()
  @Length(1, 100)
  signature!: string;
}
