import { Module } from '@nestjs/common';
import { BatchAccessModule } from '../batches/batch-access.module';
import { BatchCountersRepository } from './batch-counters.repository';
import { CallRecordSearchRepository } from './call-record-search.repository';
import { IndexCallRecordSearchHandler } from './call-record-search.handler';
import { PhoneLogsRepository } from './phone-logs.repository';

@Module({
  imports: [BatchAccessModule],
  providers: [
    BatchCountersRepository,
    PhoneLogsRepository,
    CallRecordSearchRepository,
    IndexCallRecordSearchHandler,
  ],
  exports: [BatchCountersRepository, PhoneLogsRepository],
})
export class CallRecordsModule {}
