import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type Type,
  UnauthorizedException,
} from '@nestjs/common';
import { verifyWebhook, type VerifyOptions, WebhookVerificationError } from './verify';

/** Where the guard leaves the verified event on the request. */
export const WEBHOOK_EVENT_KEY = 'switchboardWebhookEvent';

interface RawRequest {
  rawBody?: Buffer;
  headers: Record<string, string | string[] | undefined>;
  [WEBHOOK_EVENT_KEY]?: unknown;
}

export interface WebhookGuardOptions extends Omit<VerifyOptions, 'now'> {
  /** The secrets that may sign, read on each request (so a rotation needs no restart). */
  secrets: () => string | readonly string[];
}

/**
 * A guard class for a receiving Nest app: verifies the Switchboard signature of the raw body
 * and answers 401 otherwise. The app must keep raw bodies: `NestFactory.create(AppModule,
 * { rawBody: true })`. Read the event with {@link WebhookEvent}.
 *
 * @example
 * const SwitchboardWebhook = createWebhookGuard({ secrets: () => process.env.SWITCHBOARD_SECRET! });
 *
 * @Post('switchboard') @UseGuards(SwitchboardWebhook)
 * receive(@WebhookEvent() event: CallEvent) { … }
 */
export function createWebhookGuard(options: WebhookGuardOptions): Type<CanActivate> {
  @Injectable()
  class SwitchboardWebhookGuard implements CanActivate {
    canActivate(context: ExecutionContext): boolean {
      const request = context.switchToHttp().getRequest<RawRequest>();
      if (!request.rawBody) {
        throw new Error(
          'Webhook verification needs the raw body: create the app with rawBody: true',
        );
      }
      try {
        request[WEBHOOK_EVENT_KEY] = verifyWebhook(
          request.rawBody,
          request.headers,
          options.secrets(),
          options,
        );
      } catch (error) {
        if (error instanceof WebhookVerificationError)
          throw new UnauthorizedException(error.message);
        throw error;
      }
      return true;
    }
  }
  return SwitchboardWebhookGuard;
}

/** The event a webhook guard verified (`{ type, timestamp, data }`). */
export const WebhookEvent = createParamDecorator(
  (_data: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<RawRequest>()[WEBHOOK_EVENT_KEY],
);
