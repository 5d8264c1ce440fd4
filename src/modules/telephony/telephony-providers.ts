import { Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../config';
import { PlivoProvider } from './providers/plivo.provider';
import { TelnyxProvider } from './providers/telnyx.provider';
import { TwilioProvider } from './providers/twilio.provider';
import type { Integration, TelephonyProvider } from './telephony.types';

/** The adapter for each `integration` value. */
@Injectable()
export class TelephonyProviders {
  private readonly providers: Record<Integration, TelephonyProvider>;
  /** provider_three's Call Control commands (speak), which the other protocols do in XML. */
  readonly callControl: TelnyxProvider;

  constructor(@InjectConfig() config: AppConfig) {
    this.callControl = new TelnyxProvider(config);
    this.providers = {
      provider_one: new PlivoProvider(config),
      provider_two: new TwilioProvider(config),
      provider_three: this.callControl,
    };
  }

  get(integration: Integration): TelephonyProvider {
    return this.providers[integration];
  }
}
