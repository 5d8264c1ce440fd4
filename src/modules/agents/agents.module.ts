import { Module } from '@nestjs/common';
import { KnowledgeBasesRepository } from '../knowledge-bases/knowledge-bases.repository';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  controllers: [AgentsController],
  // Knowledge bases import this module (a delete forgets the base in agents), so the repository
  // that checks an agent's knowledgeBaseIds is provided here rather than imported.
  providers: [AgentsRepository, AgentsService, KnowledgeBasesRepository],
  exports: [AgentsRepository],
})
export class AgentsModule {}
