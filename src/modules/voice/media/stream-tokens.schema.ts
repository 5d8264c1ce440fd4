import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef } from '../../../database/columns';
import { phoneLogs } from '../../call-records/call-records.schema';
import { organizations } from '../../organizations/organizations.schema';

/**
 * Single-use tokens that open a call's media stream (contract §8). Only the sha256 of a token is
 * stored; a token is consumed once (`usedAt`) and dies at `expiresAt`.
 */
export const streamTokens = pgTable(
  'stream_tokens',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    phoneLogId: objectIdRef('phone_log_id')
      .notNull()
      .references(() => phoneLogs.id, { onDelete: 'cascade' }),
    /** Hex sha256 of the token. */
    tokenHash: text('token_hash').notNull().unique('stream_tokens_token_hash_key'),
    /**
     * The provider's id of the live call as its answer callback named it, where that differs
     * from the id the call was placed by (Plivo: CallUUID vs request_uuid); the stream must
     * name this call. Null: the placed call's id.
     */
    liveCallId: text('live_call_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('stream_tokens_phone_log_idx').on(t.phoneLogId)],
);

export type StreamTokenRow = typeof streamTokens.$inferSelect;
