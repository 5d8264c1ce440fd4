import { PERMISSIONS, type Permission, type Role } from '@app/contracts';
import { ConflictException, Injectable } from '@nestjs/common';
import { Database, isUniqueViolation } from '../../database';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import type { CreateUserDto } from './dto/create-user.dto';
import type { UserDto } from './dto/user.dto';
import { PasswordHasher } from './password-hasher';
import { toUserDto } from './users.mapper';
import { type NewUser, type UserAccess, UsersRepository } from './users.repository';
import type { UserRow } from './users.schema';

export interface NewUserInput {
  name: string;
  email: string;
  password: string;
  role: Role;
  permissions: Permission[];
}

/** 409: the e-mail belongs to a user already (in any organization). */
export class EmailTakenException extends ConflictException {
  constructor() {
    super('A user with this e-mail already exists');
  }
}

@Injectable()
export class UsersService {
  constructor(
    private readonly database: Database,
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Adds a user to an organization; EmailTakenException when the e-mail is taken anywhere. */
  async create(organizationId: string, input: NewUserInput): Promise<UserRow> {
    return this.insert(organizationId, await this.prepare(input));
  }

  /**
   * A new organization with its first admin, or nothing (EmailTakenException). A taken e-mail
   * costs the same work as a free one (hash, inserts, then a rollback), so timing does not tell.
   */
  async createOrganizationWithAdmin(
    organizationName: string,
    input: Pick<NewUserInput, 'name' | 'email' | 'password'>,
  ): Promise<UserRow> {
    // Hashed before the transaction: waiting for a hashing slot must not hold a connection.
    const values = await this.prepare({ ...input, role: 'admin', permissions: [...PERMISSIONS] });
    return this.database.transaction(async () => {
      const organization = await this.organizations.create(organizationName);
      return this.insert(organization.id, values);
    });
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

  /** The user with this e-mail, in whichever organization (e-mails are unique across them). */
  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.users.findByEmailForLogin(email.trim().toLowerCase());
  }

  /** Checks a password; answers in the same time whether or not the e-mail exists. */
  async verifyCredentials(email: string, password: string): Promise<UserRow | undefined> {
    const user = await this.findByEmail(email);
    const valid = await this.hasher.verify(user?.passwordHash, password);
    return valid ? user : undefined;
  }

  private async prepare(input: NewUserInput): Promise<NewUser> {
    return {
      name: input.name,
      email: input.email.trim().toLowerCase(),
      passwordHash: await this.hasher.hash(input.password),
      role: input.role,
      permissions: input.role === 'admin' ? [...PERMISSIONS] : [...new Set(input.permissions)],
    };
  }

  /** No look-up first: the unique index alone decides, also for two sign-ups racing. */
  private async insert(organizationId: string, values: NewUser): Promise<UserRow> {
    try {
      return await this.users.create(organizationId, values);
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenException();
      throw error;
    }
  }
}
