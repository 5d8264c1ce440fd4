import type { UserDto } from './dto/user.dto';
import type { UserRow } from './users.schema';

/** Explicit field list: the password hash can never reach a response. */
export function toUserDto(row: UserRow): UserDto {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    permissions: row.permissions,
    organizationId: row.organizationId,
    createdAt: row.createdAt.toISOString(),
  };
}
