import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { CallRecordsModule } from '../call-records/call-records.module';
import { DialerModule } from '../dialer/dialer.module';
import { EventsModule } from '../events/events.module';
import { PhonesModule } from '../phones/phones.module';
import { TelephonyModule } from '../telephony/telephony.module';
import { VoiceModule } from '../voice/voice.module';
import { CallbackAttempts } from './callback-attempts';
import { CallbackVerifier } from './callback-verifier';
import { HoldSoundsController } from './hold-sounds.controller';
import { TelephonyCallbacksController } from './telephony-callbacks.controller';
import { TelephonyCallbacksService } from './telephony-callbacks.service';
import { TelnyxCommands } from './telnyx-commands';
import { TransferCallbacksService } from './transfer-callbacks.service';

/**
 * The provider callbacks (contract §3): verification, then the attempt's progress (the
 * dialer's CallProgress, which raises its call events) and the answer instructions.
 */
@Module({
  imports: [
    AgentsModule,
    CallRecordsModule,
    DialerModule,
    EventsModule,
    PhonesModule,
    TelephonyModule,
    VoiceModule,
  ],
  controllers: [TelephonyCallbacksController, HoldSoundsController],
  providers: [
    CallbackAttempts,
    CallbackVerifier,
    TelephonyCallbacksService,
    TelnyxCommands,
    TransferCallbacksService,
  ],
})
export class CallProgressModule {}
