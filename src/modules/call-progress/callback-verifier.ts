import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { isObjectId } from '../../common/object-id';
import { safeEqual } from '../../common/safe-equal';
import { PhoneCredentials } from '../phones/phone-credentials';
import { PhonesRepository } from '../phones/phones.repository';
import type { PhoneNumberRow } from '../phones/phones.schema';
import { TelephonyProviders } from '../telephony/telephony-providers';
import {
  INTEGRATIONS,
  type InboundCallback,
  type Integration,
  type ProviderCredentials,
  type TelephonyProvider,
} from '../telephony/telephony.types';

/** A callback that proved it comes from the provider of that number. */
export interface VerifiedCallback {
  integration: Integration;
  phone: PhoneNumberRow;
  credentials: ProviderCredentials;
  callbackToken: string;
  provider: TelephonyProvider;
  callback: InboundCallback;
}

type Refusal =
  | 'unknown number'
  | 'integration mismatch'
  | 'credentials unreadable'
  | 'bad token'
  | 'bad signature';

const isIntegration = (value: string): value is Integration =>
  (INTEGRATIONS as readonly string[]).includes(value);

/**
 * The door of the provider callback routes, before anything is read or written for the call:
 * the number exists, belongs to the integration of the path, the URL token is the number's
 * (constant-time) and the provider's own signature holds over the public URL and the raw body.
 * Any failure is one 401 (which check failed is logged, never the token or the signature).
 */
@Injectable()
export class CallbackVerifier {
  constructor(
    private readonly phones: PhonesRepository,
    private readonly secrets: PhoneCredentials,
    private readonly providers: TelephonyProviders,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(CallbackVerifier.name);
  }

  async verify(
    integration: string,
    phoneId: string,
    callback: InboundCallback,
  ): Promise<VerifiedCallback> {
    if (!isIntegration(integration) || !isObjectId(phoneId))
      return this.refuse('unknown number', integration, phoneId);
    const phone = await this.phones.findForCallback(phoneId);
    if (!phone) return this.refuse('unknown number', integration, phoneId);
    if (phone.integration !== integration)
      return this.refuse('integration mismatch', integration, phoneId);
    let credentials: ProviderCredentials;
    let callbackToken: string;
    try {
      ({ callbackToken, ...credentials } = this.secrets.open(
        phone.organizationId,
        phone.id,
        phone.credentials,
      ));
    } catch {
      return this.refuse('credentials unreadable', integration, phoneId);
    }
    const token = new URL(callback.url).searchParams.get('token') ?? '';
    if (!safeEqual(token, callbackToken)) return this.refuse('bad token', integration, phoneId);
    // The number's own verification key (Telnyx) lives beside its sealed credentials.
    if (phone.publicKey) credentials.publicKey = phone.publicKey;
    const provider = this.providers.get(integration);
    if (!provider.verifySignature(credentials, callback))
      return this.refuse('bad signature', integration, phoneId);
    return { integration, phone, credentials, callbackToken, provider, callback };
  }

  private refuse(reason: Refusal, integration: string, phoneId: string): never {
    // Only values of a known shape reach the log: the path is the caller's to choose.
    this.logger.warn(
      {
        integration: isIntegration(integration) ? integration : 'unknown',
        phoneId: isObjectId(phoneId) ? phoneId : 'malformed',
        reason,
      },
      'Provider callback refused',
    );
    throw new UnauthorizedException('The callback could not be verified');
  }
}
