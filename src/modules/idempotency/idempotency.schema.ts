import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, objectIdRef } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';

/**
 * Idempotency-Key records: the same key and body replays the stored answer; another body with
 * the same key is refused. Scoped per organization and operation.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    operation: text('operation').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still running. */
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.operation, t.key] })],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
