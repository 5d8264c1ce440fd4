import { createPublicKey, verify } from 'node:crypto';

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const TOLERANCE_SECONDS = 300;

/** Telnyx: Ed25519 over `timestamp|body` with the account's raw 32-byte public key (base64). */
export function verifyTelnyxSignature(
  publicKeyBase64: string,
  rawBody: string,
  signatureBase64: string | undefined,
  timestamp: string | undefined,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!signatureBase64 || !timestamp || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  try {
    const key = createPublicKey({
      key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKeyBase64, 'base64')]),
      format: 'der',
      type: 'spki',
    });
    return verify(
      null,
      Buffer.from(`${timestamp}|${rawBody}`, 'utf8'),
      key,
      Buffer.from(signatureBase64, 'base64'),
    );
  } catch {
    return false;
  }
}
