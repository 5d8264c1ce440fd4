/** The call events a webhook can subscribe to (the seed's eight kinds). */
export const CALL_EVENT_TYPES = [
  'call.started',
  'call.answered',
  'call.completed',
  'call.failed',
  'call.transferred',
  'call.recording.available',
  'call.summary.generated',
  'call.analysis.completed',
] as const;

export type CallEventType = (typeof CALL_EVENT_TYPES)[number];

/** Sent by `POST /api/webhooks/{id}/test`; never subscribed to, always delivered to that one. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export type WebhookEventType = CallEventType | typeof WEBHOOK_TEST_EVENT_TYPE;
