import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { BatchAccessModule } from '../batches/batch-access.module';
import { BatchCountersRepository } from './batch-counters.repository';
import { CallRecordSearchRepository } from './call-record-search.repository';
import { IndexCallRecordSearchHandler } from './call-record-search.handler';
import { CollectedDigits } from './collected-digits';
import { PhoneLogsRepository } from './phone-logs.repository';

@Module({
  imports: [BatchAccessModule],
  providers: [
    BatchCountersRepository,
    PhoneLogsRepository,
    CallRecordSearchRepository,
    IndexCallRecordSearchHandler,
    CollectedDigits,
    SecretBox,
  ],
  exports: [BatchCountersRepository, PhoneLogsRepository, CollectedDigits],
})
export class CallRecordsModule {}
