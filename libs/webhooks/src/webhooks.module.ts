import {
  type CanActivate,
  ConfigurableModuleBuilder,
  type ExecutionContext,
  Inject,
  Injectable,
  Module,
  type OnModuleInit,
  UnauthorizedException,
} from '@nestjs/common';
import { type RawRequest, secretsOf, WEBHOOK_EVENT_KEY, type WebhookSecrets } from './nest';
import {
  DEFAULT_TOLERANCE_SECONDS,
  type IncomingHeaders,
  signerOf,
  verifyWebhook,
  WebhookVerificationError,
} from './verify';
import type { WebhookEvent } from '@app/contracts';

export interface SwitchboardWebhooksOptions {
  /** The webhook's `whsec_…` secret, as Switchboard showed it on creation or rotation. */
  secret?: string;
  /**
   * Several secrets, any of which may sign (during your own rotation: the new one and the old
   * one), or a function read on every request so a rotation needs no restart.
   */
  secrets?: WebhookSecrets;
  /** Accepted clock difference, both ways (replay window). Default 300 s. */
  toleranceSeconds?: number;
}

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } =
  new ConfigurableModuleBuilder<SwitchboardWebhooksOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (definition, extras) => ({
      ...definition,
      global: extras.isGlobal,
    }))
    .build();

export const SWITCHBOARD_WEBHOOKS_OPTIONS = MODULE_OPTIONS_TOKEN;

/** Verifies deliveries with the module's secrets and tolerance; the guard uses it. */
@Injectable()
export class SwitchboardWebhookVerifier implements OnModuleInit {
  constructor(@Inject(MODULE_OPTIONS_TOKEN) private readonly options: SwitchboardWebhooksOptions) {}

  /** A wrong configuration stops the app at start rather than answering 401 to everything. */
  onModuleInit(): void {
    const { toleranceSeconds } = this.options;
    if (
      toleranceSeconds !== undefined &&
      !(Number.isInteger(toleranceSeconds) && toleranceSeconds > 0)
    ) {
      throw new TypeError('SwitchboardWebhooksModule: toleranceSeconds must be a positive integer');
    }
    if (this.options.secret !== undefined && this.options.secrets !== undefined) {
      throw new TypeError('SwitchboardWebhooksModule: give secret or secrets, not both');
    }
    const secrets = this.secrets();
    // A function may be waiting for its store (401 to everything until then); a list may not.
    if (secrets.length === 0 && typeof this.options.secrets !== 'function') {
      throw new TypeError('SwitchboardWebhooksModule: no secret given (secret or secrets)');
    }
    secrets.forEach(signerOf);
  }

  /** The secrets accepted now (a `secrets` function is read again on each call). */
  secrets(): readonly string[] {
    return secretsOf(this.options.secrets ?? this.options.secret ?? []);
  }

  get toleranceSeconds(): number {
    return this.options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  }

  /** For routes outside Nest's guards: the event, or a thrown WebhookVerificationError. */
  verify<T = WebhookEvent>(rawBody: string | Buffer, headers: IncomingHeaders): T {
    return verifyWebhook<T>(rawBody, headers, this.secrets(), {
      toleranceSeconds: this.toleranceSeconds,
    });
  }
}

/**
 * Put on a webhook route (`@UseGuards(SwitchboardWebhookGuard)`): verifies the Standard Webhooks
 * signature of the raw body with the module's secrets and answers 401 otherwise; read the event
 * with `@WebhookEvent()`.
 */
@Injectable()
export class SwitchboardWebhookGuard implements CanActivate {
  constructor(private readonly verifier: SwitchboardWebhookVerifier) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RawRequest>();
    if (!request.rawBody) {
      throw new Error('Webhook verification needs the raw body: create the app with rawBody: true');
    }
    try {
      request[WEBHOOK_EVENT_KEY] = this.verifier.verify(request.rawBody, request.headers);
    } catch (error) {
      // The app's own error format; the message says which check failed, never a secret.
      if (error instanceof WebhookVerificationError) throw new UnauthorizedException(error.message);
      throw error;
    }
    return true;
  }
}

/**
 * Receives Switchboard's signed call events in another Nest service.
 *
 * @example
 * // main.ts: the signature covers the exact bytes, so keep them
 * const app = await NestFactory.create(AppModule, { rawBody: true });
 *
 * // app.module.ts (global unless isGlobal: false)
 * SwitchboardWebhooksModule.forRoot({ secrets: [process.env.SWITCHBOARD_WEBHOOK_SECRET!] })
 * // or forRootAsync({ inject: [ConfigService], useFactory: (config) => ({ secret: … }) })
 *
 * // a controller
 * @Post('switchboard') @HttpCode(204) @UseGuards(SwitchboardWebhookGuard)
 * receive(@WebhookEvent() event: WebhookEvent) { switch (event.type) { … } }
 */
@Module({
  providers: [SwitchboardWebhookVerifier, SwitchboardWebhookGuard],
  exports: [SwitchboardWebhookVerifier, SwitchboardWebhookGuard],
})
export class SwitchboardWebhooksModule extends ConfigurableModuleClass {}
