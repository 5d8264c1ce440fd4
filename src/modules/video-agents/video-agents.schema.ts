import { index, pgTable, text } from 'drizzle-orm/pg-core';
import type { VoiceMode } from '../../config';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';

/**
 * A video agent: an AI agent that talks to people in a video (a talking avatar) or in audio
 * only, with a voice of the catalogue that serves its mode.
 */
export const videoAgents = pgTable(
  'video_agents',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mode: text('mode').$type<VoiceMode>().notNull(),
    /** A catalogue voice id when the agent was created; kept if the catalogue later drops it. */
    voiceId: text('voice_id').notNull(),
    /** BCP 47. */
    language: text('language').notNull(),
    prompt: text('prompt').notNull().default(''),
    greeting: text('greeting'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('video_agents_organization_idx').on(t.organizationId)],
);

export type VideoAgentRow = typeof videoAgents.$inferSelect;
