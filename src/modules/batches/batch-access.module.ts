import { Module } from '@nestjs/common';
import { BatchAccessService } from './batch-access.service';
import { BatchesRepository } from './batches.repository';

/** The batch access rule, for every module whose routes name a batch. */
@Module({
  providers: [BatchesRepository, BatchAccessService],
  exports: [BatchAccessService, BatchesRepository],
})
export class BatchAccessModule {}
