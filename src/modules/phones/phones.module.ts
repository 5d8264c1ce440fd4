import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { BatchesModule } from '../batches/batches.module';
import { TelephonyModule } from '../telephony/telephony.module';
import { UsersModule } from '../users/users.module';
import { PhoneCredentials } from './phone-credentials';
import { PhonesController } from './phones.controller';
import { PhonesRepository } from './phones.repository';
import { PhonesService } from './phones.service';

@Module({
  imports: [TelephonyModule, UsersModule, BatchesModule],
  controllers: [PhonesController],
  providers: [PhonesRepository, PhonesService, PhoneCredentials, SecretBox],
  exports: [PhonesService],
})
export class PhonesModule {}
