import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';

export const ANALYSIS_FIELD_TYPES = ['string', 'number', 'boolean', 'enum'] as const;

/** One value the post-call analysis extracts from a conversation (contract-additions §8). */
export interface AnalysisField {
  name: string;
  type: (typeof ANALYSIS_FIELD_TYPES)[number];
  description: string;
  options?: string[];
}

/**
 * A voice agent: what speaks on a batch's calls. Each organization's first agent is its default
 * (the one a batch without agentId uses); at most one default per organization.
 */
export const agents = pgTable(
  'agents',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    agentName: text('agent_name').notNull(),
    gender: text('gender'),
    voice: text('voice'),
    conversationType: text('conversation_type').notNull().default('single_prompt'),
    prompt: text('prompt').notNull().default(''),
    greeting: text('greeting'),
    /** BCP 47. */
    language: text('language').notNull().default('en-US'),
    knowledgeBaseIds: text('knowledge_base_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    voicemailMessage: text('voicemail_message'),
    /** E.164. */
    transferNumber: text('transfer_number'),
    /** cold: put through on answer; warm: the colleague hears the agent's brief and accepts. */
    transferMode: text('transfer_mode').$type<'cold' | 'warm'>().notNull().default('cold'),
    maxCallSeconds: integer('max_call_seconds').notNull().default(600),
    /** Digits typed for collect_digits reach the webhook only: the model hears how many. */
    privateDigits: boolean('private_digits').notNull().default(false),
    interruptible: boolean('interruptible').notNull().default(true),
    firstSpeaker: text('first_speaker').$type<'agent' | 'callee'>().notNull().default('agent'),
    calleeFirstWaitMs: integer('callee_first_wait_ms').notNull().default(2_500),
    /** What the agent does when an automated menu answers: navigate it, or hang up. */
    onIvr: text('on_ivr').$type<'navigate' | 'hang_up'>().notNull().default('navigate'),
    /** What it does when a call-screening assistant answers: say who calls and why, or hang up. */
    onCallScreening: text('on_call_screening')
      .$type<'announce' | 'hang_up'>()
      .notNull()
      .default('announce'),
    analysisFields: jsonb('analysis_fields').$type<AnalysisField[]>().notNull().default([]),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('agents_organization_default_key')
      .on(t.organizationId)
      .where(sql`is_default`),
    index('agents_organization_created_idx').on(t.organizationId, t.createdAt, t.id),
  ],
);

export type AgentRow = typeof agents.$inferSelect;
