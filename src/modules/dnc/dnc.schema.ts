import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef } from '../../database/columns';
import { batches } from '../batches/batches.schema';
import { callRecords, phoneLogs } from '../call-records/call-records.schema';
import { organizations } from '../organizations/organizations.schema';
import { users } from '../users/users.schema';

/** The organization's do-not-call list: a number here is never dialed again. */
export const dncEntries = pgTable(
  'dnc_entries',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** E.164. */
    phoneNumber: text('phone_number').notNull(),
    type: text('type'),
    /** Where an imported number came from (a CRM, a national list): free text, or null. */
    source: text('source'),
    batchId: objectIdRef('batch_id').references(() => batches.id, { onDelete: 'set null' }),
    callRecordId: objectIdRef('call_record_id').references(() => callRecords.id, {
      onDelete: 'set null',
    }),
    phoneLogId: objectIdRef('phone_log_id').references(() => phoneLogs.id, {
      onDelete: 'set null',
    }),
    requestUuid: text('request_uuid'),
    recordingUrl: text('recording_url'),
    transcript: text('transcript'),
    createdByUserId: objectIdRef('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('dnc_entries_organization_number_key').on(t.organizationId, t.phoneNumber),
    index('dnc_entries_organization_created_idx').on(t.organizationId, t.createdAt),
  ],
);

export type DncEntryRow = typeof dncEntries.$inferSelect;
