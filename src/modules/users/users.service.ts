import { PERMISSIONS, type Permission, type Role } from '@app/contracts';
import { ConflictException, Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../database';
import type { CreateUserDto } from './dto/create-user.dto';
import type { UserDto } from './dto/user.dto';
import { PasswordHasher } from './password-hasher';
import { toUserDto } from './users.mapper';
import { type UserAccess, UsersRepository } from './users.repository';
import type { UserRow } from './users.schema';

export interface NewUserInput {
  name: string;
  email: string;
  password: string;
  role: Role;
  permissions: Permission[];
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Adds a user to an organization; the e-mail must not be taken anywhere. */
  async create(organizationId: string, input: NewUserInput): Promise<UserRow> {
    const email = input.email.trim().toLowerCase();
    if (await this.users.findByEmailForLogin(email)) throw emailTaken();
    const passwordHash = await this.hasher.hash(input.password);
    try {
      return await this.users.create(organizationId, {
        name: input.name,
        email,
        passwordHash,
        role: input.role,
        permissions: input.role === 'admin' ? [...PERMISSIONS] : [...new Set(input.permissions)],
      });
    } catch (error) {
      // Two sign-ups racing for one address: the unique index decides.
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  async createMember(organizationId: string, dto: CreateUserDto): Promise<UserDto> {
    const row = await this.create(organizationId, {
      ...dto,
      role: dto.role ?? 'member',
      permissions: dto.permissions ?? [],
    });
    return toUserDto(row);
  }

  async list(organizationId: string): Promise<UserDto[]> {
    return (await this.users.list(organizationId)).map(toUserDto);
  }

  findById(organizationId: string, id: string): Promise<UserRow | undefined> {
    return this.users.findById(organizationId, id);
  }

  /** The role and permissions of a user, for authenticating a request. */
  findAccess(organizationId: string, id: string): Promise<UserAccess | undefined> {
    return this.users.findAccess(organizationId, id);
  }

  /** Name and e-mail of the organization's admins: the recipients of its notifications. */
  listAdmins(organizationId: string): Promise<Pick<UserRow, 'id' | 'name' | 'email'>[]> {
    return this.users.listAdmins(organizationId);
  }

  /** Checks a password; answers in the same time whether or not the e-mail exists. */
  async verifyCredentials(email: string, password: string): Promise<UserRow | undefined> {
    const user = await this.users.findByEmailForLogin(email.trim().toLowerCase());
    const valid = await this.hasher.verify(user?.passwordHash, password);
    return valid ? user : undefined;
  }
}

function emailTaken(): ConflictException {
  return new ConflictException('A user with this e-mail already exists');
}
