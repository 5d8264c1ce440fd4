import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { type AppConfig, InjectConfig } from '../../config';
import { PhoneCredentials } from './phone-credentials';
import { accountKeyOf } from './provider-accounts';
import { ProviderAccountsRepository } from './provider-accounts.repository';

const PAGE = 100;

/**
 * Links, at start, the numbers added before provider accounts were kept (migration 0038) to
 * their account, read from their sealed credentials: until then they are paced per number only.
 * Idempotent, so every process that dials may run it (an API process or the CLI does not pace
 * calls); a number whose credentials do not open (another ENCRYPTION_KEY) stays unlinked, and is
 * said once.
 */
@Injectable()
export class ProviderAccountsBackfill implements OnApplicationBootstrap {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly accounts: ProviderAccountsRepository,
    private readonly credentials: PhoneCredentials,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(ProviderAccountsBackfill.name);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.process.role === 'api') return;
    let afterId = '';
    let unopened = 0;
    for (;;) {
      const numbers = await this.accounts.unlinkedNumbers(afterId, PAGE);
      for (const number of numbers) {
        const secrets = this.open(number.organizationId, number.id, number.credentials);
        if (!secrets) {
          unopened += 1;
          continue;
        }
        const key = accountKeyOf(number.integration, secrets, number.publicKey);
        await this.accounts.setAccount(
          number.id,
          await this.accounts.link(number.integration, key, undefined),
        );
      }
      if (numbers.length < PAGE) break;
      afterId = numbers[numbers.length - 1].id;
    }
    if (unopened > 0) {
      this.logger.warn(
        { numbers: unopened },
        'numbers whose credentials do not open are paced per number, not per provider account',
      );
    }
  }

  private open(organizationId: string, id: string, sealed: string) {
    try {
      return this.credentials.open(organizationId, id, sealed);
    } catch {
      return undefined;
    }
  }
}
