import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { BatchesModule } from '../batches/batches.module';
import { TelephonyModule } from '../telephony/telephony.module';
import { UsersModule } from '../users/users.module';
import { PhoneCredentials } from './phone-credentials';
import { PhonesController } from './phones.controller';
import { PhonesRepository } from './phones.repository';
import { PhonesService } from './phones.service';
import { ProviderAccountsBackfill } from './provider-accounts.backfill';
import { ProviderAccountsRepository } from './provider-accounts.repository';
import { ProviderThreeKeyCheck } from './provider-three-key.check';

@Module({
  imports: [TelephonyModule, UsersModule, BatchesModule],
  controllers: [PhonesController],
  providers: [
    PhonesRepository,
    PhonesService,
    PhoneCredentials,
    SecretBox,
    ProviderThreeKeyCheck,
    ProviderAccountsRepository,
    ProviderAccountsBackfill,
  ],
  exports: [PhonesService, PhonesRepository, PhoneCredentials],
})
export class PhonesModule {}
