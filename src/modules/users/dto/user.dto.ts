import { PERMISSIONS, type Permission, ROLES, type Role } from '@app/contracts';
import { ApiProperty } from '@nestjs/swagger';

export class UserDto {
  @ApiProperty({ example: '65f1c0ffee0123456789abcd' })
  _id!: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  name!: string;

  @ApiProperty({ example: 'ada@example.com' })
  email!: string;

  @ApiProperty({ enum: ROLES, example: 'admin' })
  role!: Role;

  @ApiProperty({ enum: PERMISSIONS, isArray: true, example: ['calls', 'dnc'] })
  permissions!: Permission[];

  @ApiProperty({ example: '65f1c0ffee0123456789abce' })
  organizationId!: string;

  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' })
  createdAt!: string;
}
