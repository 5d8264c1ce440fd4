import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { CallRecordsModule } from '../call-records/call-records.module';
import { DialerModule } from '../dialer/dialer.module';
import { EventsModule } from '../events/events.module';
import { PhonesModule } from '../phones/phones.module';
import { TelephonyModule } from '../telephony/telephony.module';
import { AttemptEvents } from './attempt-events';
import { CallbackVerifier } from './callback-verifier';
import { CallProgress } from './call-progress';
import { TelephonyCallbacksController } from './telephony-callbacks.controller';
import { TelephonyCallbacksService } from './telephony-callbacks.service';

/**
 * The provider callbacks (contract §3): verification, phone-log progress and its call events,
 * answer instructions. CallProgress is exported for other writers of an attempt's progress
 * (the dialer's reconciliation of a call whose callbacks never came).
 */
@Module({
  imports: [
    AgentsModule,
    CallRecordsModule,
    DialerModule,
    EventsModule,
    PhonesModule,
    TelephonyModule,
  ],
  controllers: [TelephonyCallbacksController],
  providers: [AttemptEvents, CallbackVerifier, CallProgress, TelephonyCallbacksService],
  exports: [CallProgress],
})
export class CallProgressModule {}
