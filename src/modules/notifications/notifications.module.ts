import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { Mailer } from './mailer.service';
import { NotificationsService } from './notifications.service';

@Module({
  imports: [UsersModule],
  providers: [Mailer, NotificationsService],
  exports: [NotificationsService],
})
export class NotificationsModule {}
