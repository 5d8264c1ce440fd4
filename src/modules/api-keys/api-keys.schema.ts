import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';
import { users } from '../users/users.schema';

/** Workspace API keys: only the SHA-256 of the secret is kept; the key is shown once. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdByUserId: objectIdRef('created_by_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The visible part of the key (`sb_<publicId>`), used to find the row. */
    publicId: text('public_id').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_keys_public_id_key').on(t.publicId),
    index('api_keys_organization_idx').on(t.organizationId, t.createdAt),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
