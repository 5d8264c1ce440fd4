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
import { HybridPassageRetriever, PassageRetriever } from './passage-retriever';
import { PassageEmbedder } from './retrieval/passage-embedder';

@Module({
  imports: [AgentsModule, MessagingModule, JobRetryPolicyModule],
  controllers: [KnowledgeBasesController],
  providers: [
    KnowledgeBasesRepository,
    KnowledgeBasePassagesRepository,
    KnowledgeBaseUploadsService,
    KnowledgeBasesService,
    DocumentTextHandler,
    PassageEmbedder,
    { provide: PassageRetriever, useClass: HybridPassageRetriever },
  ],
  exports: [PassageRetriever],
})
export class KnowledgeBasesModule {}
