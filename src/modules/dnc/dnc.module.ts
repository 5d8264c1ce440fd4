import { Module } from '@nestjs/common';
import { BatchesModule } from '../batches/batches.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { UsersModule } from '../users/users.module';
import { DncController } from './dnc.controller';
import { DncRepository } from './dnc.repository';
import { DncService } from './dnc.service';

@Module({
  imports: [UsersModule, NotificationsModule, BatchesModule],
  controllers: [DncController],
  providers: [DncRepository, DncService],
  exports: [DncService],
})
export class DncModule {}
