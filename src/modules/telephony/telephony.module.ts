import { Module } from '@nestjs/common';
import { TelephonyProviders } from './telephony-providers';

@Module({ providers: [TelephonyProviders], exports: [TelephonyProviders] })
export class TelephonyModule {}
