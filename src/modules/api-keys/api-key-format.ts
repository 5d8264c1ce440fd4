import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../../common/crypto/sha256';

// sb_<16 hex public id>_<43 base64url secret>: recognisable by secret scanners, and a
// malformed key is refused without touching the database.
const KEY_PATTERN = /^sb_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedApiKey {
  key: string;
  publicId: string;
  prefix: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const publicId = randomBytes(8).toString('hex');
  const key = `sb_${publicId}_${randomBytes(32).toString('base64url')}`;
  return { key, publicId, prefix: prefixOf(publicId), secretHash: hashApiKey(key) };
}

/** The public id of a well-formed key, or undefined. */
export function parseApiKey(key: string): string | undefined {
  return KEY_PATTERN.exec(key)?.[1];
}

export function prefixOf(publicId: string): string {
  return `sb_${publicId}`;
}

/** SHA-256 suffices: the secret has 256 bits of entropy, unlike a password. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashApiKey(key), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
