import { Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { type AppConfig, InjectConfig } from '../config';
import { InjectRedis } from '../redis/redis.module';
import { consumeOrRefuse, emailKey, limiters } from './rate-limits';

const MESSAGE = 'Too many login attempts; try again later';

// How long an address stays trusted for an account after a sign-in from it. Under 24.8 days:
// the in-memory store keeps each key with a timer, and Node timers cannot wait longer.
const KNOWN_ADDRESS_SECONDS = 14 * 24 * 3600;

/**
 * Login brute-force limits that a stranger cannot turn against an account's owner (the way
 * Auth0's brute-force protection and Okta's lockout prevention work). Every attempt is counted,
 * atomically and before the password is checked, against:
 * - its address (AUTH_LOGIN_MAX_PER_ADDRESS): one client guessing across many accounts;
 * - its e-mail and address together (AUTH_LOGIN_MAX_PER_EMAIL_AND_ADDRESS): one client guessing
 *   one account; the owner's own address has its own count, so this never locks the owner out;
 * - its e-mail (AUTH_LOGIN_MAX_PER_EMAIL), only from addresses that have not signed in to the
 *   account in the last 14 days: the ceiling on a guessing campaign spread over many addresses.
 *   Once it is reached, new addresses wait out the window; the owner's known addresses do not.
 * A success clears only its own e-mail-and-address count and marks the address as known; it
 * never resets the counts of other addresses, so the owner signing in does not help a stranger.
 */
@Injectable()
export class LoginThrottle {
  private readonly perAddress: RateLimiterAbstract;
  private readonly perEmailAndAddress: RateLimiterAbstract;
  private readonly perEmail: RateLimiterAbstract;
  private readonly knownAddresses: RateLimiterAbstract;

  constructor(@InjectConfig() config: AppConfig, @InjectRedis() redis: Redis | null) {
    const { loginMaxPerAddress, loginMaxPerEmailAndAddress, loginMaxPerEmail, loginWindowSeconds } =
      config.auth;
    const limiter = limiters(config, redis);
    this.perAddress = limiter('login-address', loginMaxPerAddress, loginWindowSeconds);
    this.perEmailAndAddress = limiter(
      'login-email-address',
      loginMaxPerEmailAndAddress,
      loginWindowSeconds,
    );
    this.perEmail = limiter('login-email', loginMaxPerEmail, loginWindowSeconds);
    this.knownAddresses = limiter('login-known', 1, KNOWN_ADDRESS_SECONDS);
  }

  /** Counts this attempt; a 429 when the address, the pair or the account is over its limit. */
  async beforeAttempt(email: string, address: string): Promise<void> {
    const account = emailKey(email);
    await consumeOrRefuse(this.perAddress, address, MESSAGE);
    await consumeOrRefuse(this.perEmailAndAddress, `${account}:${address}`, MESSAGE);
    if (!(await this.isKnown(account, address))) {
      await consumeOrRefuse(this.perEmail, account, MESSAGE);
    }
  }

  /** The owner signed in (or registered) from this address: it is trusted from now on. */
  async onSuccess(email: string, address: string): Promise<void> {
    const pair = `${emailKey(email)}:${address}`;
    await Promise.all([
      this.perEmailAndAddress.delete(pair),
      this.knownAddresses.set(pair, 1, KNOWN_ADDRESS_SECONDS),
    ]);
  }

  private async isKnown(account: string, address: string): Promise<boolean> {
    return (await this.knownAddresses.get(`${account}:${address}`)) !== null;
  }
}
