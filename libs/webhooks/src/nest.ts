import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type * as contracts from '@app/contracts';

/** Where the guard leaves the verified event on the request. */
export const WEBHOOK_EVENT_KEY = 'switchboardWebhookEvent';

/** The request as the guard sees it: Nest keeps the raw body when the app has `rawBody: true`. */
export interface RawRequest {
  rawBody?: Buffer;
  headers: Record<string, string | string[] | undefined>;
  [WEBHOOK_EVENT_KEY]?: unknown;
}

/** The secrets that may sign: one, several (rotation), or read on each request. */
export type WebhookSecrets = string | readonly string[] | (() => string | readonly string[]);

export const secretsOf = (secrets: WebhookSecrets): readonly string[] => {
  const value = typeof secrets === 'function' ? secrets() : secrets;
  return typeof value === 'string' ? [value] : value;
};

/**
 * The event the guard verified, `{ type, timestamp, data }`; narrow it with
 * `switch (event.type)`. Use on a route guarded by SwitchboardWebhookGuard.
 */
export const WebhookEvent = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<RawRequest>()[WEBHOOK_EVENT_KEY],
);

/** Any delivery Switchboard sends, discriminated by `type` (libs/contracts). */
export type WebhookEvent = contracts.WebhookEvent;
