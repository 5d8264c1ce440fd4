import { PERMISSIONS } from '@app/contracts';
import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { type AppConfig, InjectConfig } from '../config';
import { Database } from '../database';
import { OrganizationsRepository } from '../modules/organizations/organizations.repository';
import type { UserDto } from '../modules/users/dto/user.dto';
import { toUserDto } from '../modules/users/users.mapper';
import type { UserRow } from '../modules/users/users.schema';
import { UsersService } from '../modules/users/users.service';
import type { Principal } from './access';
import type { LoginDto, RegisterDto } from './dto/register.dto';
import type { SessionDto } from './dto/session.dto';
import type { AccessTokenClaims } from './jwt-claims';
import { LoginThrottle } from './login-throttle';

@Injectable()
export class AuthService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly database: Database,
    private readonly organizations: OrganizationsRepository,
    private readonly users: UsersService,
    private readonly jwt: JwtService,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Creates an organization with the caller as its first admin. */
  async register(dto: RegisterDto): Promise<SessionDto> {
    if (!this.config.auth.allowSignup) throw new ForbiddenException('Sign-up is disabled');
    const user = await this.database.transaction(async () => {
      const organization = await this.organizations.create(dto.organizationName);
      return this.users.create(organization.id, {
        name: dto.name,
        email: dto.email,
        password: dto.password,
        role: 'admin',
        permissions: [...PERMISSIONS],
      });
    });
    return this.session(user);
  }

  async login(dto: LoginDto, address: string): Promise<SessionDto> {
    await this.throttle.beforeAttempt(address, dto.email);
    const user = await this.users.verifyCredentials(dto.email, dto.password);
    if (!user) {
      await this.throttle.onFailure(dto.email);
      // Same answer whether the e-mail is unknown or the password wrong.
      throw new UnauthorizedException('Invalid e-mail or password');
    }
    await this.throttle.onSuccess(dto.email);
    return this.session(user);
  }

  async me(principal: Principal): Promise<UserDto> {
    const user = await this.users.findById(principal.organizationId, principal.userId);
    if (!user) throw new UnauthorizedException('Invalid access token');
    return toUserDto(user);
  }

  private async session(user: UserRow): Promise<SessionDto> {
    const claims: AccessTokenClaims = { sub: user.id, org: user.organizationId };
    return { accessToken: await this.jwt.signAsync(claims), user: toUserDto(user) };
  }
}
