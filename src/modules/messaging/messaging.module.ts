import { Module } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { KnowledgeBasesRepository } from '../knowledge-bases/knowledge-bases.repository';
import { WebhookTargetGuard } from '../webhooks/ssrf';
import { GraphClient } from './graph/graph-client';
import { MessagingAgentsController } from './messaging-agents.controller';
import { MessagingAgentsRepository } from './messaging-agents.repository';
import { MessagingAgentsService } from './messaging-agents.service';
import { MessagingIntegrationsController } from './messaging-integrations.controller';
import { MessagingIntegrationsRepository } from './messaging-integrations.repository';
import { MessagingIntegrationsService } from './messaging-integrations.service';
import { MessagingNumbersRepository } from './messaging-numbers.repository';
import { MessagingNumbersService } from './messaging-numbers.service';
import { MessagingTemplatesController } from './messaging-templates.controller';
import { MessagingTemplatesRepository } from './messaging-templates.repository';
import { MessagingTemplatesService } from './messaging-templates.service';
import { MessagingTokens } from './messaging-tokens';

/**
 * The messaging platform (WhatsApp Cloud API under a neutral name): connected business numbers,
 * their templates, number validation and the AI agents that answer them.
 */
@Module({
  controllers: [
    MessagingIntegrationsController,
    MessagingTemplatesController,
    MessagingAgentsController,
  ],
  // Knowledge bases import this module (a delete forgets the base in messaging agents), so the
  // repository that checks an agent's knowledge bases is provided here rather than imported.
  providers: [
    SecretBox,
    MessagingTokens,
    GraphClient,
    WebhookTargetGuard,
    KnowledgeBasesRepository,
    MessagingIntegrationsRepository,
    MessagingIntegrationsService,
    MessagingTemplatesRepository,
    MessagingTemplatesService,
    MessagingNumbersRepository,
    MessagingNumbersService,
    MessagingAgentsRepository,
    MessagingAgentsService,
  ],
  exports: [
    GraphClient,
    MessagingIntegrationsService,
    MessagingIntegrationsRepository,
    MessagingTemplatesService,
    MessagingTemplatesRepository,
    MessagingNumbersRepository,
    MessagingAgentsRepository,
  ],
})
export class MessagingModule {}
