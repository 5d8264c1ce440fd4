import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { AgentsModule } from '../agents/agents.module';
import { BatchAccessModule } from '../batches/batch-access.module';
import { CallRecordsModule } from '../call-records/call-records.module';
import { EventsModule } from '../events/events.module';
import { PhoneCredentials } from '../phones/phone-credentials';
import { TelephonyModule } from '../telephony/telephony.module';
import { AttemptEndings } from './attempt-endings';
import { AttemptEvents } from './attempt-events';
import { AttemptOutcomes } from './attempt-outcomes';
import { AttemptOutcomesRepository } from './attempt-outcomes.repository';
import { AttemptRecovery } from './attempt-recovery';
import { AttemptRecoveryRepository } from './attempt-recovery.repository';
import { AttemptReleases } from './attempt-releases';
import { AttemptTransfers } from './attempt-transfers';
import { AttemptsRepository } from './attempts.repository';
import { CallPlacement } from './call-placement';
import { CallPlacementRepository } from './call-placement.repository';
import { CallProgress } from './call-progress';
import { DialerClaims } from './dialer-claims';
import { DialerClaimsRepository } from './dialer-claims.repository';
import { DialerScheduler } from './dialer-scheduler';
import { ScheduledEnds } from './scheduled-ends';

/** Places the calls of active batches (docs/dialer.md). */
@Module({
  imports: [AgentsModule, BatchAccessModule, CallRecordsModule, EventsModule, TelephonyModule],
  providers: [
    AttemptOutcomes,
    AttemptOutcomesRepository,
    AttemptsRepository,
    AttemptEndings,
    AttemptEvents,
    AttemptRecovery,
    AttemptRecoveryRepository,
    AttemptReleases,
    AttemptTransfers,
    CallPlacement,
    CallPlacementRepository,
    CallProgress,
    DialerClaims,
    DialerClaimsRepository,
    DialerScheduler,
    ScheduledEnds,
    // Stateless: sealing is the phones module's; the dialer only opens a number's credentials.
    PhoneCredentials,
    SecretBox,
  ],
  exports: [
    AttemptEndings,
    AttemptEvents,
    AttemptOutcomes,
    AttemptsRepository,
    AttemptTransfers,
    CallProgress,
    DialerScheduler,
  ],
})
export class DialerModule {}
