import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { CallRecordsModule } from '../call-records/call-records.module';
import { ContactsModule } from '../contacts/contacts.module';
import { UsersModule } from '../users/users.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { BatchAccessModule } from './batch-access.module';
import { BatchDetailsRepository } from './batch-details.repository';
import { BatchRedialRepository } from './batch-redial.repository';
import { BatchRedialService } from './batch-redial.service';
import { BatchesController } from './batches.controller';
import { BatchesService } from './batches.service';
import { CreateBatchService } from './create-batch.service';

@Module({
  imports: [
    AgentsModule,
    BatchAccessModule,
    IdempotencyModule,
    CallRecordsModule,
    UsersModule,
    ContactsModule,
  ],
  controllers: [BatchesController],
  providers: [
    BatchDetailsRepository,
    BatchesService,
    BatchRedialRepository,
    BatchRedialService,
    CreateBatchService,
  ],
  exports: [BatchesService],
})
export class BatchesModule {}
