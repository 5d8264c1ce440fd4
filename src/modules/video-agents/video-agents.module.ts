import { Module } from '@nestjs/common';
import { VideoAgentsController } from './video-agents.controller';
import { VideoAgentsRepository } from './video-agents.repository';
import { VideoAgentsService } from './video-agents.service';

@Module({
  controllers: [VideoAgentsController],
  providers: [VideoAgentsRepository, VideoAgentsService],
})
export class VideoAgentsModule {}
