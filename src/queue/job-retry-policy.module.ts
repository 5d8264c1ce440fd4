import { Module } from '@nestjs/common';
import { DEFAULT_JOB_RETRY_POLICY, JOB_RETRY_POLICY } from './jobs';

/** Provides JOB_RETRY_POLICY to both drivers and to the BullMQ queue options (tests override it). */
@Module({
  providers: [{ provide: JOB_RETRY_POLICY, useValue: DEFAULT_JOB_RETRY_POLICY }],
  exports: [JOB_RETRY_POLICY],
})
export class JobRetryPolicyModule {}
