import { PERMISSIONS } from '@app/contracts';
import { ForbiddenException, Injectable, Logger, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { detach } from '../common/detach';
import { newObjectId } from '../common/object-id';
import { type AppConfig, InjectConfig } from '../config';
import { NotificationsService } from '../modules/notifications/notifications.service';
import type { UserDto } from '../modules/users/dto/user.dto';
import { toUserDto } from '../modules/users/users.mapper';
import type { UserRow } from '../modules/users/users.schema';
import { EmailTakenException, UsersService } from '../modules/users/users.service';
import type { Principal } from './access';
import type { LoginDto, RegisterDto } from './dto/register.dto';
import type { SessionDto } from './dto/session.dto';
import type { AccessTokenClaims } from './jwt-claims';
import { LoginThrottle } from './login-throttle';
import { RegisterThrottle } from './register-throttle';

// Says nothing the sign-up form supplied (organization or name): a stranger chose those.
const ALREADY_REGISTERED = {
  subject: 'Sign-up attempt with your e-mail address',
  text: [
    'Someone tried to create a new Switchboard organization with this e-mail address,',
    'which already has an account. Nothing was created and your account is unchanged.',
    '',
    'If it was you, sign in with your existing password instead.',
    'If it was not you, you can ignore this message.',
  ].join('\n'),
};

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly jwt: JwtService,
    private readonly loginThrottle: LoginThrottle,
    private readonly registerThrottle: RegisterThrottle,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * Creates an organization with the caller as its first admin. A taken e-mail gets the same
   * answer (see decoySession), so sign-up cannot tell who has an account.
   */
  async register(dto: RegisterDto, address: string): Promise<SessionDto> {
    if (!this.config.auth.allowSignup) throw new ForbiddenException('Sign-up is disabled');
    await this.registerThrottle.beforeAttempt(address);
    let user: UserRow;
    try {
      user = await this.users.createOrganizationWithAdmin(dto.organizationName, dto);
    } catch (error) {
      if (error instanceof EmailTakenException) return this.decoySession(dto);
      throw error;
    }
    await this.loginThrottle.onSuccess(user.email, address);
    return this.session(user);
  }

  async login(dto: LoginDto, address: string): Promise<SessionDto> {
    await this.loginThrottle.beforeAttempt(dto.email, address);
    const user = await this.users.verifyCredentials(dto.email, dto.password);
    // Same answer whether the e-mail is unknown or the password wrong.
    if (!user) throw new UnauthorizedException('Invalid e-mail or password');
    await this.loginThrottle.onSuccess(user.email, address);
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

  /**
   * The answer to a sign-up with a taken e-mail: shaped like a real one, for a user and an
   * organization that do not exist, so the token is refused (401) wherever it is used. Nothing
   * was created; the owner of the address is told by e-mail, at most once an hour.
   */
  private async decoySession(dto: RegisterDto): Promise<SessionDto> {
    if (await this.registerThrottle.mayNotify(dto.email)) {
      detach(this.notifications.notifyAddress(dto.email, ALREADY_REGISTERED), {
        what: 'Already-registered notice',
        logger: this.logger,
      });
    }
    const now = new Date();
    // Ids in the order a real sign-up makes them: ObjectIds carry a counter a client can read.
    const organizationId = newObjectId();
    return this.session({
      id: newObjectId(),
      organizationId,
      name: dto.name,
      email: dto.email,
      passwordHash: '',
      role: 'admin',
      permissions: [...PERMISSIONS],
      createdAt: now,
      updatedAt: now,
    });
  }
}
