import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, objectIdRef } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';

/**
 * The outbox: one row per event, written in the transaction of the state change it reports,
 * so an event exists if and only if that change committed. Deliveries fan out from here.
 */
export const events = pgTable(
  'events',
  {
    /** `msg_…`: sent as `webhook-id`, the receiver's idempotency key. */
    id: varchar('id', { length: 40 }).primaryKey(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    /** The call the event is about; null for `webhook.test`. */
    callId: text('call_id'),
    /** 1, 2, 3… per call in commit order; 0 for events about no call. */
    sequence: integer('sequence').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    /** The payload but for sealedData's fields: nothing private is kept here in clear. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /**
     * Fields of the payload kept sealed (private collect_digits entries), opened into `data`
     * only by the delivery about to sign (sealed-event-data.ts); null when there are none.
     */
    sealedData: text('sealed_data'),
    createdAt: createdAt(),
  },
  (t) => [
    index('events_organization_call_idx')
      .on(t.organizationId, t.callId, t.sequence)
      .where(sql`call_id IS NOT NULL`),
  ],
);

/**
 * The last sequence handed out per call. Raising an event increments it with an upsert whose
 * row lock is held until commit, so concurrent transactions of one call get 1, 2, 3… in commit
 * order and a rolled-back transaction gives its number back.
 */
export const eventSequences = pgTable(
  'event_sequences',
  {
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    callId: text('call_id').notNull(),
    lastSequence: integer('last_sequence').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.callId] })],
);

export type EventRow = typeof events.$inferSelect;
