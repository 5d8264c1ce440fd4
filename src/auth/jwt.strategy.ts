import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { jwtKey } from './jwt-key';
import { isObjectId } from '../common/object-id';
import { type AppConfig, InjectConfig } from '../config';
import { UsersService } from '../modules/users/users.service';
import type { Principal } from './access';
import type { AccessTokenClaims } from './jwt-claims';

export const JWT_STRATEGY = 'jwt';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly users: UsersService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: jwtKey(config),
      // Pinned: `alg: none` and key-confusion tokens are refused by jsonwebtoken itself.
      algorithms: ['HS256'],
      issuer: config.auth.jwtIssuer,
      audience: config.auth.jwtAudience,
      ignoreExpiration: false,
    });
  }

  /** Runs after the signature, expiry, issuer and audience checks passed. */
  async validate(claims: AccessTokenClaims): Promise<Principal> {
    if (typeof claims.exp !== 'number' || !isObjectId(claims.sub) || !isObjectId(claims.org)) {
      throw new UnauthorizedException('Invalid access token');
    }
    // Looked up on every request, so a deleted or demoted user's token stops working at once in
    // every process (a cache here would keep it alive in the processes that did not delete it).
    const user = await this.users.findAccess(claims.org, claims.sub);
    if (!user) throw new UnauthorizedException('Invalid access token');
    return {
      kind: 'user',
      organizationId: user.organizationId,
      userId: user.id,
      role: user.role,
      permissions: user.permissions,
    };
  }
}
