import { computeSignature, secretKey, SIGNATURE_VERSION } from './signature';

export interface SignWebhookInput {
  /** Message id: the same on every retry of one delivery, so receivers can deduplicate. */
  id: string;
  /** Time of this attempt: a Date or Unix seconds. */
  timestamp: Date | number;
  /** The exact bytes that will be sent as the body. */
  body: string | Buffer;
  /** One or more `whsec_…` secrets; each adds a signature (several during a rotation). */
  secrets: readonly string[];
}

/** The three Standard Webhooks headers of a delivery. */
export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * Signs a delivery the Standard Webhooks way: `webhook-signature` holds `v1,<base64 HMAC-SHA256
 * of "id.timestamp.body">` for each secret, separated by spaces.
 */
export function signWebhook({ id, timestamp, body, secrets }: SignWebhookInput): WebhookHeaders {
  if (secrets.length === 0) throw new TypeError('signWebhook needs at least one secret');
  const seconds =
    typeof timestamp === 'number' ? Math.floor(timestamp) : Math.floor(timestamp.getTime() / 1000);
  const signature = secrets
    .map(
      (secret) => `${SIGNATURE_VERSION},${computeSignature(secretKey(secret), id, seconds, body)}`,
    )
    .join(' ');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': signature,
  };
}
