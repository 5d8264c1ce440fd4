import { createHmac } from 'node:crypto';
import { safeEqual } from '../../../common/safe-equal';

const HEADER = /^sha256=([0-9a-f]{64})$/i;

/** `sha256=<hex HMAC-SHA256(app secret, raw body)>`: how the platform signs each delivery. */
export function hubSignature(appSecret: string, rawBody: Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/**
 * Whether `X-Hub-Signature-256` signs these exact bytes with the app secret. Computed over the
 * raw body (never re-serialised JSON) and compared in constant time.
 */
export function isHubSignatureValid(
  appSecret: string,
  rawBody: Buffer,
  header: string | undefined,
): boolean {
  const hex = header === undefined ? undefined : HEADER.exec(header.trim())?.[1];
  if (hex === undefined) return false;
  return safeEqual(hubSignature(appSecret, rawBody), `sha256=${hex.toLowerCase()}`);
}
