import { Module } from '@nestjs/common';
import { CallRecordSearchRepository } from './call-record-search.repository';
import { IndexCallRecordSearchHandler } from './call-record-search.handler';
import { PhoneLogsRepository } from './phone-logs.repository';

@Module({
  providers: [PhoneLogsRepository, CallRecordSearchRepository, IndexCallRecordSearchHandler],
  exports: [PhoneLogsRepository],
})
export class CallRecordsModule {}
