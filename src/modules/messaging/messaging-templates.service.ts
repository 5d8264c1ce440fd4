import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../config';
import type { MessagingTemplateDto, TemplateVariablesDto } from './dto/messaging-template.dto';
import { GraphClient } from './graph/graph-client';
import { GraphError } from './graph/graph-error';
import { MessagingIntegrationsRepository } from './messaging-integrations.repository';
import { MessagingIntegrationsService } from './messaging-integrations.service';
import { platformRefusal } from './messaging-platform';
import { MessagingTemplatesRepository } from './messaging-templates.repository';
import type { MessagingIntegrationRow, MessagingTemplateRow } from './messaging.schema';
import { extractTemplateVariables } from './template-variables';

/**
 * Templates of connected numbers, served from a cache that is synchronised with the platform
 * (every page) once it is older than MESSAGING_TEMPLATE_CACHE_SECONDS (default 15 minutes).
 * When the platform cannot be asked, the last synchronised templates are served.
 */
@Injectable()
export class MessagingTemplatesService {
  private readonly logger = new Logger(MessagingTemplatesService.name);
  private readonly maxAgeMs: number;
  /** One synchronisation per integration at a time in this process; others wait for it. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly integrations: MessagingIntegrationsRepository,
    private readonly connected: MessagingIntegrationsService,
    private readonly templates: MessagingTemplatesRepository,
    private readonly graph: GraphClient,
  ) {
    this.maxAgeMs = config.messaging.templateCacheSeconds * 1000;
  }

  /** Every template of every connected business account of the organization, each once. */
  async listAll(organizationId: string): Promise<MessagingTemplateDto[]> {
    const integrations = await this.integrations.list(organizationId);
    await Promise.all(
      integrations.map((integration) =>
        this.refresh(integration).catch((error: unknown) => {
          if (!(error instanceof GraphError)) throw error;
        }),
      ),
    );
    const seen = new Set<string>();
    return (await this.templates.list(organizationId))
      .filter((row) => !seen.has(row.templateId) && seen.add(row.templateId))
      .map(toTemplateDto);
  }

  async listForNumber(
    organizationId: string,
    phoneNumberId: string,
  ): Promise<MessagingTemplateDto[]> {
    const integration = await this.fresh(organizationId, phoneNumberId);
    return (await this.templates.list(organizationId, integration.id)).map(toTemplateDto);
  }

  async variables(
    organizationId: string,
    phoneNumberId: string,
    templateId: string,
  ): Promise<TemplateVariablesDto> {
    const integration = await this.fresh(organizationId, phoneNumberId);
    const row = await this.templates.find(organizationId, integration.id, templateId);
    if (!row) throw new NotFoundException('Template not found');
    return {
      templateId: row.templateId,
      name: row.name,
      language: row.language,
      parameterFormat: row.parameterFormat,
      variables: extractTemplateVariables(row.components),
    };
  }

  /**
   * The integration with its cache refreshed when stale. A failed refresh serves the cache;
   * only a number never synchronised answers the platform's refusal.
   */
  private async fresh(
    organizationId: string,
    phoneNumberId: string,
  ): Promise<MessagingIntegrationRow> {
    const integration = await this.connected.find(organizationId, phoneNumberId);
    try {
      await this.refresh(integration);
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      if (integration.templatesSyncedAt === null) {
        throw platformRefusal(error, 'stored', 'Business account');
      }
    }
    return integration;
  }

  private refresh(integration: MessagingIntegrationRow): Promise<void> {
    const syncedAt = integration.templatesSyncedAt;
    if (syncedAt !== null && Date.now() - syncedAt.getTime() < this.maxAgeMs) {
      return Promise.resolve();
    }
    let run = this.running.get(integration.id);
    if (!run) {
      run = this.synchronise(integration).finally(() => this.running.delete(integration.id));
      this.running.set(integration.id, run);
    }
    return run;
  }

  private async synchronise(integration: MessagingIntegrationRow): Promise<void> {
    const startedAt = new Date();
    try {
      const token = this.connected.storedToken(integration);
      const templates = await this.graph.listTemplates(token, integration.businessAccountId);
      await this.templates.replace(integration.organizationId, integration, templates, startedAt);
    } catch (error) {
      if (error instanceof GraphError) {
        this.logger.warn(
          `Template sync failed for messaging integration ${integration.id}: ${error.kind}` +
            ` (code ${error.code ?? 'none'}, fbtrace_id ${error.fbtraceId ?? 'none'})`,
        );
        await this.connected.noteRefusal(integration, error);
      }
      throw error;
    }
  }
}

function toTemplateDto(row: MessagingTemplateRow): MessagingTemplateDto {
  return {
    id: row.templateId,
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    parameterFormat: row.parameterFormat,
    businessAccountId: row.businessAccountId,
  };
}
