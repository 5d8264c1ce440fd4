import { createSecretKey } from 'node:crypto';
import type { AppConfig } from '../config';

/**
 * The HS256 key as a KeyObject. Handed a string, jsonwebtoken first tries to parse it as a
 * public key on every call (an exception per request: ~18% of an authenticated request's CPU).
 * Typed as a string because passport-jwt's typings predate KeyObject; jsonwebtoken accepts both.
 */
export function jwtKey(config: AppConfig): string {
  return createSecretKey(Buffer.from(config.auth.jwtSecret, 'utf8')) as unknown as string;
}
