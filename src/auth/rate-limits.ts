import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { TooManyRequestsException } from '../common/too-many-requests.exception';
import type { AppConfig } from '../config';

/**
 * Makes fixed-window counters shared through Redis when configured (every instance sees the
 * same counts), in memory otherwise and while Redis fails. `consume` is one atomic increment,
 * so N parallel requests count N.
 */
export function limiters(config: AppConfig, redis: Redis | null) {
  return (name: string, points: number, durationSeconds: number): RateLimiterAbstract => {
    const keyPrefix = `${config.redis.prefix}:${name}`;
    const options = { keyPrefix, points, duration: durationSeconds };
    const memory = new RateLimiterMemory(options);
    return redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory })
      : memory;
  };
}

/** Counts one request against `key`; over the limit, a 429 carrying Retry-After. */
export async function consumeOrRefuse(
  limiter: RateLimiterAbstract,
  key: string,
  message: string,
): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new TooManyRequestsException(message, retryAfterSeconds);
  }
}

/** E-mail addresses stay out of Redis keys (and memory dumps): a digest names them. */
export function emailKey(email: string): string {
  return createHash('sha256').update(email).digest('base64url').slice(0, 22);
}
