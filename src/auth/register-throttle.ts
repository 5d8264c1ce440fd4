import { Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { type AppConfig, InjectConfig } from '../config';
import { InjectRedis } from '../redis/redis.module';
import { consumeOrRefuse, emailKey, limiters } from './rate-limits';

const NOTICE_INTERVAL_SECONDS = 3600;

/**
 * Sign-up limits: each one costs an argon2id hash (~0.2 s of a core, 64 MiB), so an address gets
 * AUTH_REGISTER_MAX_PER_ADDRESS per window. The "already registered" notice goes out at most
 * once an hour per e-mail, so sign-ups with someone else's address cannot flood their inbox.
 */
@Injectable()
export class RegisterThrottle {
  private readonly perAddress: RateLimiterAbstract;
  private readonly notices: RateLimiterAbstract;

  constructor(@InjectConfig() config: AppConfig, @InjectRedis() redis: Redis | null) {
    const { registerMaxPerAddress, registerWindowSeconds } = config.auth;
    const limiter = limiters(config, redis);
    this.perAddress = limiter('register-address', registerMaxPerAddress, registerWindowSeconds);
    this.notices = limiter('register-notice', 1, NOTICE_INTERVAL_SECONDS);
  }

  beforeAttempt(address: string): Promise<void> {
    return consumeOrRefuse(this.perAddress, address, 'Too many sign-ups; try again later');
  }

  /** True when the e-mail may be sent an "already registered" notice now. */
  async mayNotify(email: string): Promise<boolean> {
    try {
      await this.notices.consume(emailKey(email));
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return false;
      throw rejection;
    }
  }
}
