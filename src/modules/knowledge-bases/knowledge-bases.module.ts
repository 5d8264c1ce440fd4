import { Module } from '@nestjs/common';
import { JobRetryPolicyModule } from '../../queue/job-retry-policy.module';
import { AgentsModule } from '../agents/agents.module';
import { MessagingModule } from '../messaging/messaging.module';
import { DocumentTextHandler } from './document-text.handler';
import { KnowledgeBasePassagesRepository } from './knowledge-base-passages.repository';
import { KnowledgeBaseUploadsService } from './knowledge-base-uploads.service';
import { KnowledgeBasesController } from './knowledge-bases.controller';
import { KnowledgeBasesRepository } from './knowledge-bases.repository';
import { KnowledgeBasesService } from './knowledge-bases.service';
import { FullTextPassageRetriever, PassageRetriever } from './passage-retriever';

@Module({
  imports: [AgentsModule, MessagingModule, JobRetryPolicyModule],
  controllers: [KnowledgeBasesController],
  providers: [
    KnowledgeBasesRepository,
    KnowledgeBasePassagesRepository,
    KnowledgeBaseUploadsService,
    KnowledgeBasesService,
    DocumentTextHandler,
    { provide: PassageRetriever, useClass: FullTextPassageRetriever },
  ],
  exports: [PassageRetriever],
})
export class KnowledgeBasesModule {}
