import { Module } from '@nestjs/common';
import { BatchAccessModule } from '../batches/batch-access.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { UsersModule } from '../users/users.module';
import { DncExportService } from './dnc-export.service';
import { DncImportService } from './dnc-import.service';
import { DncController } from './dnc.controller';
import { DncRepository } from './dnc.repository';
import { DncService } from './dnc.service';

@Module({
  imports: [UsersModule, NotificationsModule, BatchAccessModule, IdempotencyModule],
  controllers: [DncController],
  providers: [DncRepository, DncService, DncImportService, DncExportService],
  exports: [DncService],
})
export class DncModule {}
