import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type Type,
  UnauthorizedException,
} from '@nestjs/common';
import type * as contracts from '@app/contracts';
import { verifyWebhook, type VerifyOptions, WebhookVerificationError } from './verify';

/** Where the guard leaves the verified event on the request. */
export const WEBHOOK_EVENT_KEY = 'switchboardWebhookEvent';

interface RawRequest {
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
 * Verifies the request's raw body and leaves the event on it for {@link WebhookEvent}; 401
 * (UnauthorizedException, the app's own error format) when it is not an authentic delivery.
 */
export function verifyRequest(
  context: ExecutionContext,
  secrets: readonly string[],
  options: Omit<VerifyOptions, 'now'>,
): true {
  const request = context.switchToHttp().getRequest<RawRequest>();
  if (!request.rawBody) {
    throw new Error('Webhook verification needs the raw body: create the app with rawBody: true');
  }
  try {
    request[WEBHOOK_EVENT_KEY] = verifyWebhook(request.rawBody, request.headers, secrets, options);
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new UnauthorizedException(error.message);
    throw error;
  }
  return true;
}

export interface WebhookGuardOptions extends Omit<VerifyOptions, 'now'> {
  /** The secrets that may sign, read on each request (so a rotation needs no restart). */
  secrets: () => string | readonly string[];
}

/**
 * A guard class without the module (see SwitchboardWebhooksModule for the injectable one):
 * verifies the Switchboard signature of the raw body and answers 401 otherwise. The app must
 * keep raw bodies: `NestFactory.create(AppModule, { rawBody: true })`.
 *
 * @example
 * const SwitchboardWebhook = createWebhookGuard({ secrets: () => process.env.SWITCHBOARD_SECRET! });
 *
 * @Post('switchboard') @UseGuards(SwitchboardWebhook)
 * receive(@WebhookEvent() event: WebhookEvent) { … }
 */
export function createWebhookGuard(options: WebhookGuardOptions): Type<CanActivate> {
  @Injectable()
  class SwitchboardWebhookGuard implements CanActivate {
    canActivate(context: ExecutionContext): boolean {
      return verifyRequest(context, secretsOf(options.secrets), options);
    }
  }
  return SwitchboardWebhookGuard;
}

/**
 * The event the guard verified, `{ type, timestamp, data }`; narrow it with
 * `switch (event.type)`. Use on a route guarded by SwitchboardWebhookGuard or createWebhookGuard.
 */
export const WebhookEvent = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<RawRequest>()[WEBHOOK_EVENT_KEY],
);

/** Any delivery Switchboard sends, discriminated by `type` (libs/contracts). */
export type WebhookEvent = contracts.WebhookEvent;
