import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, objectIdRef } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';

/**
 * Idempotency-Key records: the same key and body replays the stored answer; another body with
 * the same key is refused. Scoped per organization and operation. A record is first a claim (no
 * response yet) held for a short lease its request keeps renewing; the response is written in
 * the same transaction as the resource it created, and the record then lives 24 hours.
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
    /** The request holding the claim: only it may complete or release the record. */
    claimId: text('claim_id'),
    /** Null while the first request is still running. */
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
    /** The end of the claim's lease while running; of the stored answer once completed. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.operation, t.key] })],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
