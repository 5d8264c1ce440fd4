import { PERMISSIONS, type Permission, ROLES, type Role } from '@app/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayUnique,
  IsArray,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Length,
  MaxLength,
} from 'class-validator';

export class CreateUserDto {
  @ApiProperty({ example: 'Grace Hopper', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({
    example: 'grace@example.com',
    description: 'Unique across Switchboard; compared case-insensitively',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  )
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: 8, maxLength: 256 })
  @IsString()
  @Length(8, 256)
  password!: string;

  @ApiPropertyOptional({
    enum: ROLES,
    default: 'member',
    description: 'An admin holds every permission',
  })
  @IsOptional()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({ enum: PERMISSIONS, isArray: true, default: [], example: ['calls', 'dnc'] })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true })
  permissions?: Permission[];
}
