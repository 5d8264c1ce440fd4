import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';

/** Why a webhook was switched off other than by its owner. */
export type WebhookDisabledReason = 'gone' | 'failing' | 'manual';

/**
 * A customer endpoint subscribed to call events. Configuration only: delivery health lives with
 * the deliveries, so `updated_at` moves only when the owner changes something.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    /** Subscribed event types (`call.started`, …). */
    events: text('events').array().notNull(),
    active: boolean('active').notNull().default(true),
    /** The signing secret (`whsec_…`), sealed with SecretBox; see webhook-secrets.ts. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation: it still signs until `previous_secret_expires_at`. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** Set when delivery switched the webhook off (410 Gone, or failing for days). */
    disabledReason: text('disabled_reason').$type<WebhookDisabledReason>(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhooks_organization_created_idx').on(t.organizationId, t.createdAt),
    // Fan-out looks up the active subscribers of one event type in one organization.
    index('webhooks_subscribers_idx')
      .using('gin', t.events)
      .where(sql`active`),
  ],
);

export type WebhookRow = typeof webhooks.$inferSelect;
