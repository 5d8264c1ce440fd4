import { randomBytes } from 'node:crypto';
import {
  BadGatewayException,
  BadRequestException,
  Injectable,
  InternalServerErrorException,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { newObjectId } from '../../common/object-id';
import { maskPhoneNumber, toE164 } from '../../common/phone-number';
import { type AppConfig, InjectConfig } from '../../config';
import { Database, isUniqueViolation } from '../../database';
import { BatchesService } from '../batches/batches.service';
import { ProviderError, providerUnavailable } from '../telephony/provider-error';
import { TelephonyProviders } from '../telephony/telephony-providers';
import type { Integration, OwnedNumber, ProviderCredentials } from '../telephony/telephony.types';
import { UsersService } from '../users/users.service';
import { callbackUrlsFor } from './callback-urls';
import type { AddPhoneDto } from './dto/add-phone.dto';
import type {
  DeletePhoneResponseDto,
  PhoneNumberDto,
  PhoneNumberListItemDto,
  PhoneVerificationDto,
} from './dto/phone.dto';
import { PhoneCredentials } from './phone-credentials';
import { PhonesRepository } from './phones.repository';
import type { PhoneNumberRow } from './phones.schema';
import { ACCOUNT_CALLS_PER_SECOND, accountKeyOf } from './provider-accounts';
import { ProviderAccountsRepository } from './provider-accounts.repository';

const DUPLICATE = 'Phone number already exists for this user';

@Injectable()
export class PhonesService {
  private readonly logger = new Logger(PhonesService.name);

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly phones: PhonesRepository,
    private readonly users: UsersService,
    private readonly providers: TelephonyProviders,
    private readonly credentials: PhoneCredentials,
    private readonly database: Database,
    private readonly batches: BatchesService,
    private readonly accounts: ProviderAccountsRepository,
  ) {}

  /**
   * Validates the credentials and the number at the provider (reads: a failure there leaves
   * nothing behind), then saves the number and wires the provider's callbacks to us in one
   * transaction: a failure at any step saves nothing and leaves no wiring at the provider.
   */
  async add(organizationId: string, dto: AddPhoneDto): Promise<PhoneNumberDto> {
    if (!(await this.users.findById(organizationId, dto.userId)))
      throw new NotFoundException('User not found');
    const e164 = toE164(dto.phoneNumber);
    if (!e164)
      throw new BadRequestException('Invalid phoneNumber: expected a number with its country code');
    if (await this.phones.findByUserAndNumber(organizationId, dto.userId, e164))
      throw new BadRequestException(DUPLICATE);
    if (dto.integration !== 'provider_three' && dto.accSId.trim() === '') {
      throw new BadRequestException('accSId is required for this integration');
    }
    if (dto.publicKey !== undefined && dto.integration !== 'provider_three') {
      throw new BadRequestException('publicKey applies to provider_three numbers only');
    }
    if (dto.integration === 'provider_three' && !this.providerThreeCallbacksVerifiable(dto)) {
      throw new BadRequestException(
        'provider_three numbers cannot be added without a publicKey: the server has no PROVIDER_THREE_PUBLIC_KEY to verify their callbacks',
      );
    }

    const provider = this.providers.get(dto.integration);
    const credentials: ProviderCredentials = {
      accountId: dto.accSId.trim(),
      secret: dto.authToken,
    };
    await this.checkAtProvider(() => provider.validateCredentials(credentials));
    const owned = await this.checkAtProvider(() =>
      provider.verifyNumberOwnership(credentials, e164),
    );

    const id = newObjectId();
    const callbackToken = randomBytes(32).toString('base64url');
    const urls = callbackUrlsFor(
      this.config.http.publicBaseUrl,
      dto.integration,
      id,
      callbackToken,
    );
    const seal = (accountId: string) =>
      this.credentials.seal(organizationId, id, { ...credentials, accountId, callbackToken });
    try {
      // The row first: a duplicate stops here, before the provider is touched. The transaction
      // holds the (user, number) key while the provider answers, so a concurrent add of the same
      // number waits and then fails as a duplicate instead of wiring the number a second time.
      return await this.database.transaction(async () => {
        const row = await this.phones.create(organizationId, {
          id,
          userId: dto.userId,
          phoneNumber: e164,
          integration: dto.integration,
          credentials: seal(credentials.accountId),
          publicKey: dto.publicKey ?? null,
          providerNumberId: owned.providerNumberId,
          webhooksCheckedAt: new Date(),
        });
        const { appId } = await this.wireAtProvider(dto.integration, e164, () =>
          provider.configureWebhooks(credentials, owned, urls),
        );
        // Last, so the account's row (which claims lock to pace it) is held only until the commit.
        const providerAccountId = await this.accounts.link(
          dto.integration,
          accountKeyOf(dto.integration, credentials, dto.publicKey ?? null),
          dto.accountCallsPerSecond,
        );
        await this.phones.update(organizationId, id, {
          providerAccountId,
          // For provider_three the app id is the Call Control Application we configured.
          ...(appId ? { providerAppId: appId } : {}),
          ...(appId && dto.integration === 'provider_three' ? { credentials: seal(appId) } : {}),
        });
        return toPhoneDto(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new BadRequestException(DUPLICATE);
      throw error;
    }
  }

  async list(organizationId: string): Promise<PhoneNumberListItemDto[]> {
    return (await this.phones.list(organizationId)).map((row) => ({
      ...toPhoneDto(row),
      status: row.status,
      publicKey: row.publicKey,
      accountCallsPerSecond: row.accountCallsPerSecond ?? ACCOUNT_CALLS_PER_SECOND[row.integration],
    }));
  }

  /** Removes the number from the workspace and from every batch (batches left with none pause). */
  async delete(organizationId: string, id: string): Promise<DeletePhoneResponseDto> {
    await this.database.transaction(async () => {
      if (!(await this.phones.delete(organizationId, id)))
        throw new NotFoundException('Phone number not found');
      await this.batches.removeCallingNumber(organizationId, id);
    });
    return { success: true, deletedId: id };
  }

  /** Re-checks credentials, ownership and webhook wiring at the provider; `repair` re-applies the wiring. */
  async verify(organizationId: string, id: string, repair: boolean): Promise<PhoneVerificationDto> {
    const row = await this.phones.findById(organizationId, id);
    if (!row) throw new NotFoundException('Phone number not found');
    const { callbackToken, ...credentials } = this.credentials.open(
      organizationId,
      id,
      row.credentials,
    );
    const provider = this.providers.get(row.integration);
    const urls = callbackUrlsFor(
      this.config.http.publicBaseUrl,
      row.integration,
      id,
      callbackToken,
    );
    const owned: OwnedNumber = { e164: row.phoneNumber, providerNumberId: row.providerNumberId };
    const report: PhoneVerificationDto = {
      ...pick(row),
      credentialsValid: false,
      numberOwned: false,
      webhooksInSync: false,
      drift: [],
      repaired: false,
      checkedAt: new Date().toISOString(),
    };
    try {
      await provider.validateCredentials(credentials);
      report.credentialsValid = true;
      await provider.verifyNumberOwnership(credentials, row.phoneNumber);
      report.numberOwned = true;
      const wiring = { appId: row.providerAppId ?? undefined };
      report.drift = await provider.inspectWebhooks(credentials, owned, urls, wiring);
      if (report.drift.length > 0 && repair) {
        const { appId } = await provider.configureWebhooks(credentials, owned, urls);
        await this.phones.update(organizationId, id, { providerAppId: appId ?? null });
        report.repaired = true;
      }
      report.webhooksInSync = report.drift.length === 0 || report.repaired;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.isOutage) throw providerUnavailable(error);
      // An answer about the credentials or the number is the report; any other refusal is ours.
      if (!['auth', 'not_owned', 'not_found'].includes(error.kind)) {
        throw new BadGatewayException(`Could not verify at the provider: ${error.message}`);
      }
    }
    await this.phones.update(organizationId, id, {
      status: report.credentialsValid && report.numberOwned ? 'active' : 'inactive',
      webhooksCheckedAt: new Date(report.checkedAt),
    });
    return report;
  }

  /** Provider answers about the customer's input become 400; outages 502. */
  private async checkAtProvider<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      if (error.isOutage) throw providerUnavailable(error);
      if (error.kind === 'not_owned') {
        throw new BadRequestException(
          `Phone number not owned by the provider account: ${error.message}`,
        );
      }
      throw new BadRequestException(`Invalid provider credentials: ${error.message}`);
    }
  }

  /** An outage is 502 as everywhere; a provider refusing our set-up is ours to fix (500). */
  private async wireAtProvider<T>(
    integration: Integration,
    e164: string,
    step: () => Promise<T>,
  ): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      this.logger.warn(
        `Webhook set-up failed for ${integration} number ${maskPhoneNumber(e164)}: ${error.message}`,
      );
      if (error.isOutage) throw providerUnavailable(error);
      throw new InternalServerErrorException(`Webhook set-up failure: ${error.message}`);
    }
  }

  /** Where a key is required, the number's own or else PROVIDER_THREE_PUBLIC_KEY verifies its callbacks. */
  private providerThreeCallbacksVerifiable(dto: AddPhoneDto): boolean {
    const { providerThreePublicKey, providerThreeKeyRequired } = this.config.telephony;
    return (
      dto.publicKey !== undefined ||
      providerThreePublicKey !== undefined ||
      !providerThreeKeyRequired
    );
  }
}

function toPhoneDto(row: PhoneNumberRow): PhoneNumberDto {
  return {
    _id: row.id,
    userId: row.userId,
    phoneNumber: row.phoneNumber,
    integration: row.integration,
    createdAt: row.createdAt.toISOString(),
  };
}

function pick(row: PhoneNumberRow) {
  return { _id: row.id, phoneNumber: row.phoneNumber, integration: row.integration };
}
