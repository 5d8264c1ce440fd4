import { Module } from '@nestjs/common';
import { PhoneLogsRepository } from './phone-logs.repository';

@Module({ providers: [PhoneLogsRepository], exports: [PhoneLogsRepository] })
export class CallRecordsModule {}
