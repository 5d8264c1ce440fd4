import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bulkObjectIdPk, createdAt, objectIdRef, updatedAt } from '../../database/columns';
import { batches } from '../batches/batches.schema';
import { organizations } from '../organizations/organizations.schema';

export type CallRecordStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'do_not_call';

/** One contact of a batch: an E.164 number and its dynamic fields (jsonb). */
export const callRecords = pgTable(
  'call_records',
  {
    id: bulkObjectIdPk(),
    // No foreign key to organizations: the batch's (which cascades from its organization)
    // covers it, and each key costs a lookup per imported row.
    organizationId: objectIdRef('organization_id').notNull(),
    batchId: objectIdRef('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    contact: jsonb('contact').$type<Record<string, string>>().notNull().default({}),
    status: text('status').$type<CallRecordStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** The callStatus of the latest phone log, kept in step by the repository that writes logs. */
    lastCallStatus: text('last_call_status'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('call_records_batch_page_idx').on(t.batchId, t.createdAt, t.id),
    uniqueIndex('call_records_batch_phone_key').on(t.batchId, t.phoneNumber),
    index('call_records_batch_status_page_idx').on(t.batchId, t.lastCallStatus, t.createdAt, t.id),
    index('call_records_pending_number_idx')
      .on(t.organizationId, t.phoneNumber)
      .where(sql`status = 'pending'`),
  ],
);

/**
 * Every value of a contact (jsonb), one per line: the text the regular-expression search runs
 * over, in newline-sensitive mode so ^ and $ anchor at each field.
 */
export const contactSearchText = (contact: SQL | AnyPgColumn): SQL =>
  sql`regexp_replace(jsonb_path_query_array(${contact}, 'strict $.*')::text, '^\\["|"\\]$|", "', E'\\n', 'g')`;

/**
 * The trigram-indexed search text of call records, kept off the import path: a queued job
 * (IndexCallRecordSearchHandler) fills it after an import, in chunks, and moves the batch's
 * search watermark (batches.searchIndexedAt/Id) forward. Records after the watermark are
 * searched directly.
 */
export const callRecordSearch = pgTable(
  'call_record_search',
  {
    callRecordId: objectIdRef('call_record_id')
      .primaryKey()
      .references(() => callRecords.id, { onDelete: 'cascade' }),
    batchId: objectIdRef('batch_id').notNull(),
    searchText: text('search_text').notNull(),
  },
  (t) => [index('call_record_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops'))],
);

/** One call attempt of a call record. `requestUUID` is the id the DNC add operation accepts. */
export const phoneLogs = pgTable(
  'phone_logs',
  {
    id: bulkObjectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    batchId: objectIdRef('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    callRecordId: objectIdRef('call_record_id')
      .notNull()
      .references(() => callRecords.id, { onDelete: 'cascade' }),
    requestUuid: uuid('request_uuid').notNull().defaultRandom(),
    callStatus: text('call_status').notNull(),
    callDuration: integer('call_duration').notNull().default(0),
    recordingUrl: text('recording_url'),
    transcript: text('transcript'),
    providerStatus: text('provider_status'),
    /** The calling number (phone record) used. */
    phoneId: objectIdRef('phone_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('phone_logs_request_uuid_key').on(t.requestUuid),
    index('phone_logs_record_created_idx').on(t.callRecordId, t.createdAt),
  ],
);

/** Calls of a batch per latest callStatus, so filtered totals never count a million rows. */
export const batchStatusCounts = pgTable(
  'batch_status_counts',
  {
    batchId: objectIdRef('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    callStatus: text('call_status').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [uniqueIndex('batch_status_counts_key').on(t.batchId, t.callStatus)],
);

export type CallRecordRow = typeof callRecords.$inferSelect;
export type PhoneLogRow = typeof phoneLogs.$inferSelect;
