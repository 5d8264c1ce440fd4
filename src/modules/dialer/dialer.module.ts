import { Module } from '@nestjs/common';
import { AttemptOutcomes } from './attempt-outcomes';

/** Places the calls of active batches (docs/dialer.md). */
@Module({ providers: [AttemptOutcomes], exports: [AttemptOutcomes] })
export class DialerModule {}
