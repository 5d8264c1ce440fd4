import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../database/columns';
import { agents } from '../agents/agents.schema';
import { organizations } from '../organizations/organizations.schema';
import { users } from '../users/users.schema';

export type QueueStatus = 'active' | 'paused' | 'completed';

/**
 * How an attempt can end that a batch may call again for (`retryOn`): busy, no answer, a failed
 * call, and the machines that answered — a voicemail (its message left or not), a full mailbox,
 * a fax machine.
 */
export const RETRY_OUTCOMES = [
  'busy',
  'no_answer',
  'failed',
  'voicemail',
  'mailbox_full',
  'fax',
] as const;
export type RetryOutcome = (typeof RETRY_OUTCOMES)[number];

/** What a batch calls again for unless it says otherwise: all but a fax line. */
export const DEFAULT_RETRY_ON: readonly RetryOutcome[] = [
  'busy',
  'no_answer',
  'failed',
  'voicemail',
  'mailbox_full',
];

/**
 * An outcome's own retry budget (CreateBatchDto.retryPolicy): at most `attempts` retries after
 * endings with that outcome in one attempt series, each `delay` seconds later (absent: the
 * batch's `delay`).
 */
export interface RetryRule {
  attempts: number;
  delay?: number;
}
export type RetryPolicy = Partial<Record<RetryOutcome, RetryRule>>;

/**
 * Why a batch is not dialing normally (contract-additions §3); null while all is well.
 * `end_at_reached`: completed at its endAt (docs/dialer.md, Lifecycle).
 */
export const STATUS_REASONS = [
  'cancelled',
  'failure_rate',
  'no_agent',
  'no_calling_number',
  'end_at_reached',
] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

/** A calling campaign: its contacts are call records; its counters are kept in step with them. */
export const batches = pgTable(
  'batches',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: objectIdRef('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    batchName: text('batch_name').notNull(),
    /** Phone record ids the dialer rotates through. */
    callingNumbers: text('calling_numbers').array().notNull(),
    retry: integer('retry').notNull().default(0),
    /** The endings that earn another attempt (RETRY_OUTCOMES); null: DEFAULT_RETRY_ON. */
    retryOn: text('retry_on').array().$type<RetryOutcome[]>(),
    /** Seconds between retries. */
    delay: integer('delay').notNull().default(0),
    /** Per-outcome retry budgets; outcomes it does not name follow retry, retryOn and delay. */
    retryPolicy: jsonb('retry_policy').$type<RetryPolicy>(),
    /** Nothing is dialed before it (null: at once). */
    startAt: timestamp('start_at', { withTimezone: true }),
    /** No call is placed from it on; the dialer then closes what is pending (null: never). */
    endAt: timestamp('end_at', { withTimezone: true }),
    timezone: text('timezone').notNull().default('UTC'),
    callingHourStart: text('calling_hour_start'),
    callingHourEnd: text('calling_hour_end'),
    allowedDays: integer('allowed_days')
      .array()
      .notNull()
      .default(sql`'{0,1,2,3,4,5,6}'`),
    enforceCalleeLocalHours: boolean('enforce_callee_local_hours').notNull().default(true),
    /** A contact's timezone is used even where the number cannot be (CreateBatchDto). */
    trustContactTimezone: boolean('trust_contact_timezone').notNull().default(false),
    queueStatus: text('queue_status').$type<QueueStatus>().notNull().default('active'),
    /** statusReason (column name kept from when it only said why a batch was paused). */
    statusReason: text('paused_reason').$type<StatusReason>(),
    /** The voice agent that speaks; null: the organization's default agent. */
    agentId: objectIdRef('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    /** Calls in progress at once for this batch; null: the organization's limit. */
    maxConcurrentCalls: integer('max_concurrent_calls'),
    /** Whether calls are recorded (call.recording.available follows each answered call). */
    recordCalls: boolean('record_calls').notNull().default(false),
    totalCalls: integer('total_calls').notNull().default(0),
    callsPicked: integer('calls_picked').notNull().default(0),
    callsCompleted: integer('calls_completed').notNull().default(0),
    /**
     * The search watermark, a (created_at, id) key of its call records: every record at or before
     * it has its row in call_record_search; later ones are searched directly. The search index
     * job moves it forward; an import moves it back before its own records (in the statement
     * that inserts them), so a record committed late is never skipped. As text, to the microsecond.
     */
    searchIndexedAt: timestamp('search_indexed_at', { withTimezone: true, mode: 'string' })
      .notNull()
      .default(sql`'-infinity'`),
    searchIndexedId: objectIdRef('search_indexed_id').notNull().default(''),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('batches_owner_listing_idx')
      .on(t.organizationId, t.userId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`NOT ${t.isDeleted}`),
    index('batches_calling_numbers_idx').using('gin', t.callingNumbers),
    index('batches_dialing_idx')
      .on(t.organizationId)
      .where(sql`queue_status = 'active' AND NOT is_deleted`),
    // The scheduler's look for batches whose endAt has come (ScheduledEnds).
    index('batches_end_at_idx')
      .on(t.endAt)
      .where(sql`end_at IS NOT NULL AND queue_status <> 'completed' AND NOT is_deleted`),
  ],
);

export type BatchRow = typeof batches.$inferSelect;
