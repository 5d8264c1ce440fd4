import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { type AppConfig, InjectConfig } from '../../config';
import { PhonesRepository } from './phones.repository';

/**
 * Says at start when provider_three numbers exist whose callbacks cannot be verified: added
 * without their account's public key while the server has none either. Where the key is required
 * (see AppConfig.telephony) those callbacks are refused until it is set.
 */
@Injectable()
export class ProviderThreeKeyCheck implements OnApplicationBootstrap {
  // PinoLogger rather than Nest's Logger: the line reaches the app's log stream in every mode.
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly phones: PhonesRepository,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(ProviderThreeKeyCheck.name);
  }

  async onApplicationBootstrap(): Promise<void> {
    const { providerThreePublicKey, providerThreeKeyRequired } = this.config.telephony;
    if (providerThreePublicKey !== undefined || !providerThreeKeyRequired) return;
    const numbers = await this.phones.countWithoutPublicKey('provider_three');
    if (numbers === 0) return;
    this.logger.error(
      { numbers },
      'PROVIDER_THREE_PUBLIC_KEY is not set: the callbacks of provider_three numbers added without ' +
        'their own publicKey are refused until it is',
    );
  }
}
