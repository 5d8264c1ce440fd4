/**
 * Signing and verification of Switchboard webhook deliveries (Standard Webhooks, `v1`
 * HMAC-SHA256). Switchboard signs with `signWebhook`; receivers verify with `verifyWebhook` or
 * the Nest guard from `createWebhookGuard`. Interoperable with the `standardwebhooks` package.
 */
export { computeSignature, SECRET_PREFIX, secretKey, SIGNATURE_VERSION } from './signature';
export { signWebhook, type SignWebhookInput, type WebhookHeaders } from './sign';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type IncomingHeaders,
  verifyWebhook,
  type VerifyOptions,
  WebhookVerificationError,
} from './verify';
export {
  createWebhookGuard,
  WEBHOOK_EVENT_KEY,
  WebhookEvent,
  type WebhookGuardOptions,
} from './nest';
