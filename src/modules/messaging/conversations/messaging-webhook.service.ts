import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { safeEqual } from '../../../common/safe-equal';
import { type AppConfig, InjectConfig } from '../../../config';
import { MessagingEventsService } from './messaging-events.service';
import { isHubSignatureValid } from './webhook-signature';

/** What the platform's challenge looks like (digits); anything else is not echoed. */
const CHALLENGE = /^[\w.-]{1,128}$/;

/**
 * The platform's side of the webhook: the verify handshake (MESSAGING_VERIFY_TOKEN) and signed
 * deliveries (MESSAGING_APP_SECRET). With either unset, incoming events are refused.
 */
@Injectable()
export class MessagingWebhookService {
  private readonly appSecret: string | undefined;
  private readonly verifyToken: string | undefined;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly events: MessagingEventsService,
  ) {
    this.appSecret = config.messaging.appSecret;
    this.verifyToken = config.messaging.verifyToken;
  }

  /** The challenge to echo when the platform subscribes with our verify token; else 403. */
  verify(mode: unknown, token: unknown, challenge: unknown): string {
    const expected = this.verifyToken;
    if (
      mode !== 'subscribe' ||
      typeof token !== 'string' ||
      expected === undefined ||
      !safeEqual(token, expected)
    ) {
      throw new ForbiddenException('Webhook verification failed');
    }
    if (typeof challenge !== 'string' || !CHALLENGE.test(challenge))
      throw new BadRequestException('hub.challenge is missing or malformed');
    return challenge;
  }

  /**
   * Checks `X-Hub-Signature-256` over the raw body before anything is read (401, nothing
   * stored), then stores the delivery and queues its processing.
   */
  async accept(rawBody: Buffer | undefined, signature: unknown, body: unknown): Promise<void> {
    const secret = this.appSecret;
    if (
      secret === undefined ||
      rawBody === undefined ||
      typeof signature !== 'string' ||
      !isHubSignatureValid(secret, rawBody, signature)
    ) {
      throw new UnauthorizedException('Missing or invalid X-Hub-Signature-256');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new BadRequestException('The event must be a JSON object');
    await this.events.receive(body);
  }
}
