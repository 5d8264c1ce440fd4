import { Injectable } from '@nestjs/common';
import { and, asc, eq } from 'drizzle-orm';
import { Database } from '../../database';
import type { GraphTemplate } from './graph/graph.types';
import { extractTemplateVariables, parameterFormatOf } from './template-variables';
import {
  messagingIntegrations,
  messagingTemplates,
  type MessagingTemplateRow,
} from './messaging.schema';

/** The template cache of connected numbers; each query starts from the organization. */
@Injectable()
export class MessagingTemplatesRepository {
  constructor(private readonly database: Database) {}

  /** Replaces the integration's cached templates with what the platform listed, at once. */
  async replace(
    organizationId: string,
    integration: { id: string; businessAccountId: string },
    templates: GraphTemplate[],
    syncedAt: Date,
  ): Promise<void> {
    await this.database.transaction(async () => {
      const db = this.database.db;
      // The integration's row first: its lock makes a concurrent sync wait instead of colliding.
      await db
        .update(messagingIntegrations)
        .set({ templatesSyncedAt: syncedAt })
        .where(
          and(
            eq(messagingIntegrations.organizationId, organizationId),
            eq(messagingIntegrations.id, integration.id),
          ),
        );
      await db
        .delete(messagingTemplates)
        .where(
          and(
            eq(messagingTemplates.organizationId, organizationId),
            eq(messagingTemplates.integrationId, integration.id),
          ),
        );
      const unique = [...new Map(templates.map((t) => [t.id, t])).values()];
      if (unique.length > 0) {
        await db.insert(messagingTemplates).values(
          unique.map((template, position) => ({
            organizationId,
            integrationId: integration.id,
            businessAccountId: integration.businessAccountId,
            templateId: template.id,
            name: template.name,
            language: template.language,
            category: template.category,
            status: template.status,
            parameterFormat: parameterFormatOf(
              template.parameter_format,
              extractTemplateVariables(template.components ?? []),
            ),
            components: template.components ?? [],
            position,
          })),
        );
      }
    });
  }

  /** Forgets the cache (its business account changed): the next read synchronises. */
  async forget(organizationId: string, integrationId: string): Promise<void> {
    await this.database.db
      .delete(messagingTemplates)
      .where(
        and(
          eq(messagingTemplates.organizationId, organizationId),
          eq(messagingTemplates.integrationId, integrationId),
        ),
      );
  }

  /** Every cached template of the organization, or of one integration, in the platform's order. */
  list(organizationId: string, integrationId?: string): Promise<MessagingTemplateRow[]> {
    return this.database.db
      .select()
      .from(messagingTemplates)
      .where(
        and(
          eq(messagingTemplates.organizationId, organizationId),
          integrationId === undefined
            ? undefined
            : eq(messagingTemplates.integrationId, integrationId),
        ),
      )
      .orderBy(asc(messagingTemplates.integrationId), asc(messagingTemplates.position));
  }

  async find(
    organizationId: string,
    integrationId: string,
    templateId: string,
  ): Promise<MessagingTemplateRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(messagingTemplates)
      .where(
        and(
          eq(messagingTemplates.organizationId, organizationId),
          eq(messagingTemplates.integrationId, integrationId),
          eq(messagingTemplates.templateId, templateId),
        ),
      );
    return row;
  }
}
