import { Module } from '@nestjs/common';
import { AttemptOutcomes } from './attempt-outcomes';
import { AttemptsRepository } from './attempts.repository';

/** Places the calls of active batches (docs/dialer.md). */
@Module({
  providers: [AttemptOutcomes, AttemptsRepository],
  exports: [AttemptOutcomes, AttemptsRepository],
})
export class DialerModule {}
