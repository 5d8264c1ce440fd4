import { Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { TooManyRequestsException } from '../common/too-many-requests.exception';
import { type AppConfig, InjectConfig } from '../config';
import { InjectRedis } from '../redis/redis.module';

/**
 * Login brute-force limits: every attempt counts against the client address, failed attempts
 * count against the e-mail (a success clears them). Shared through Redis when configured, so
 * every instance sees the same counts; in memory otherwise (and if Redis fails).
 */
@Injectable()
export class LoginThrottle {
  private readonly perAddress: RateLimiterAbstract;
  private readonly perEmail: RateLimiterAbstract;
  private readonly maxPerEmail: number;

  constructor(@InjectConfig() config: AppConfig, @InjectRedis() redis: Redis | null) {
    const { loginMaxPerAddress, loginMaxPerEmail, loginWindowSeconds } = config.auth;
    this.maxPerEmail = loginMaxPerEmail;
    const create = (keyPrefix: string, points: number): RateLimiterAbstract => {
      const options = {
        keyPrefix: `${config.redis.prefix}:${keyPrefix}`,
        points,
        duration: loginWindowSeconds,
      };
      const memory = new RateLimiterMemory(options);
      return redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory })
        : memory;
    };
    this.perAddress = create('login-address', loginMaxPerAddress);
    this.perEmail = create('login-email', loginMaxPerEmail);
  }

  /** Counts an attempt from this address and refuses when it or the e-mail is over its limit. */
  async beforeAttempt(address: string, email: string): Promise<void> {
    try {
      await this.perAddress.consume(address);
    } catch (rejection) {
      throw toTooMany(rejection);
    }
    const failures = await this.perEmail.get(email);
    if (failures && failures.consumedPoints >= this.maxPerEmail) throw toTooMany(failures);
  }

  async onFailure(email: string): Promise<void> {
    await this.perEmail.penalty(email, 1);
  }

  async onSuccess(email: string): Promise<void> {
    await this.perEmail.delete(email);
  }
}

function toTooMany(rejection: unknown): unknown {
  if (!(rejection instanceof RateLimiterRes)) return rejection;
  const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
  return new TooManyRequestsException(
    'Too many login attempts; try again later',
    retryAfterSeconds,
  );
}
