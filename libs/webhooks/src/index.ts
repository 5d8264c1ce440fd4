/**
 * Signing and verification of Switchboard webhook deliveries (Standard Webhooks, `v1`
 * HMAC-SHA256), and the payload types of every event. Switchboard signs with `signWebhook`;
 * receivers verify with SwitchboardWebhooksModule (a Nest guard and an injectable verifier) or,
 * outside Nest, `verifyWebhook`: one verification path. Verification computes signatures with the `standardwebhooks` package.
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
export { WEBHOOK_EVENT_KEY, WebhookEvent, type WebhookSecrets } from './nest';
export {
  SWITCHBOARD_WEBHOOKS_OPTIONS,
  SwitchboardWebhookGuard,
  SwitchboardWebhooksModule,
  type SwitchboardWebhooksOptions,
  SwitchboardWebhookVerifier,
} from './webhooks.module';
// The payloads, from the one definition the server raises them with (libs/contracts).
export {
  ANSWERED_BY,
  type AnsweredBy,
  CALL_ENDED_BY,
  CALL_EVENT_TYPES,
  CALL_FAILURE_REASONS,
  CALL_SENTIMENTS,
  type CallAnalysisCompletedEventData,
  type CallAnsweredEventData,
  type CallCompletedEventData,
  type CallEndedBy,
  type CallEvent,
  type CallEventBase,
  type CallEventType,
  type CallFailedEventData,
  type CallFailureReason,
  FAILED_DEPENDENCIES,
  type FailedDependency,
  type CallRecordingAvailableEventData,
  type CallSentiment,
  type CallStartedEventData,
  type CallSummaryGeneratedEventData,
  type CallTransferredEventData,
  type TranscriptTurn,
  WEBHOOK_TEST_EVENT_TYPE,
  type WebhookDelivery,
  type WebhookEventDataMap,
  type WebhookEventType,
  type WebhookTestEventData,
} from '@app/contracts';
