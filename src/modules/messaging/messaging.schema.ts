import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';
import type { GraphTemplateComponent, TemplateParameterFormat } from './graph/graph.types';

/** `reauth_required`: the platform refused the access token (code 190); update it to reconnect. */
export type MessagingIntegrationStatus = 'connected' | 'reauth_required';

/**
 * A business phone number of the messaging platform connected to the organization. The number
 * id is unique across organizations: the platform sends its events to one place only.
 */
export const messagingIntegrations = pgTable(
  'messaging_integrations',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    phoneNumberId: text('phone_number_id').notNull(),
    businessAccountId: text('business_account_id').notNull(),
    /** E.164 from the platform's display number. */
    phoneNumber: text('phone_number').notNull(),
    displayName: text('display_name').notNull(),
    qualityRating: text('quality_rating'),
    /** AES-256-GCM sealed access token (SecretBox); never returned. */
    accessToken: text('access_token').notNull(),
    status: text('status').$type<MessagingIntegrationStatus>().notNull().default('connected'),
    /** The per-number webhook override last applied at the platform. */
    webhookUrl: text('webhook_url'),
    /** When the templates were last fetched from the platform; null: never. */
    templatesSyncedAt: timestamp('templates_synced_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('messaging_integrations_phone_number_id_key').on(t.phoneNumberId),
    index('messaging_integrations_organization_created_idx').on(t.organizationId, t.createdAt),
  ],
);

export type MessagingIntegrationRow = typeof messagingIntegrations.$inferSelect;

/** The templates of an integration's business account as last synchronised (a cache). */
export const messagingTemplates = pgTable(
  'messaging_templates',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: objectIdRef('integration_id')
      .notNull()
      .references(() => messagingIntegrations.id, { onDelete: 'cascade' }),
    /** The platform's template id (name + language is not unique across edits). */
    templateId: text('template_id').notNull(),
    businessAccountId: text('business_account_id').notNull(),
    name: text('name').notNull(),
    language: text('language').notNull(),
    category: text('category').notNull(),
    status: text('status').notNull(),
    parameterFormat: text('parameter_format').$type<TemplateParameterFormat>().notNull(),
    components: jsonb('components').$type<GraphTemplateComponent[]>().notNull(),
    /** The platform's order, kept for listing. */
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('messaging_templates_integration_template_key').on(t.integrationId, t.templateId),
    index('messaging_templates_organization_idx').on(t.organizationId),
  ],
);

export type MessagingTemplateRow = typeof messagingTemplates.$inferSelect;

/**
 * Numbers the platform reported undeliverable (error 131026: not on the platform, or unable to
 * receive). Written by the processing of incoming delivery statuses; read by number validation.
 */
export const messagingUndeliverableNumbers = pgTable(
  'messaging_undeliverable_numbers',
  {
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** E.164. */
    phoneNumber: text('phone_number').notNull(),
    errorCode: integer('error_code').notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('messaging_undeliverable_numbers_key').on(t.organizationId, t.phoneNumber)],
);

export type MessagingAgentStatus = 'active';

/** The AI agent that answers a connected business number: at most one per number. */
export const messagingAgents = pgTable(
  'messaging_agents',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    integrationId: objectIdRef('integration_id')
      .notNull()
      .references(() => messagingIntegrations.id, { onDelete: 'cascade' }),
    phoneNumberId: text('phone_number_id').notNull(),
    agentName: text('agent_name').notNull(),
    systemPrompt: text('system_prompt').notNull(),
    welcomeMessage: text('welcome_message'),
    knowledgeBaseIds: text('knowledge_base_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Unset: LLM_MODEL. */
    model: text('model'),
    temperature: real('temperature'),
    status: text('status').$type<MessagingAgentStatus>().notNull().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('messaging_agents_integration_key').on(t.integrationId),
    index('messaging_agents_organization_idx').on(t.organizationId),
  ],
);

export type MessagingAgentRow = typeof messagingAgents.$inferSelect;
