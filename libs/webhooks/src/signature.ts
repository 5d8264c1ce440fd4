import { createHmac, timingSafeEqual } from 'node:crypto';

/** Standard Webhooks symmetric secrets start with this prefix; the rest is base64. */
export const SECRET_PREFIX = 'whsec_';
export const SIGNATURE_VERSION = 'v1';

/** The signing key of a `whsec_…` secret (the prefix is optional, as in standardwebhooks). */
export function secretKey(secret: string): Buffer {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  if (key.length === 0) throw new TypeError('Webhook secret is empty or not base64');
  return key;
}

/** base64 HMAC-SHA256 of `id.timestamp.body`: the `<signature>` of `v1,<signature>`. */
export function computeSignature(
  key: Buffer,
  id: string,
  timestamp: number,
  body: string | Buffer,
): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
}

/** Constant-time comparison of two base64 signatures (false on any length difference). */
export function signaturesEqual(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'base64');
  const b = Buffer.from(received, 'base64');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}
