import type { AnswerOutcome } from '@app/contracts';
import type { CallDependency } from '../../common/dependency-failure';
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

/** `canceled`: still pending when its batch was cancelled (never dialed again). */
export type CallRecordStatus =
  'pending' | 'in_progress' | 'completed' | 'failed' | 'do_not_call' | 'canceled';

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
    /** Attempts placed before the current attempt series (a redial starts a new one). */
    attemptsBeforeSeries: integer('attempts_before_series').notNull().default(0),
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
    // A number's attempts and live calls across the organization's batches (number-attempts.ts).
    // The number first: led by the organization, the planner took it for a batch's searches
    // and counts (organization_id = … AND batch_id = …) and scanned the whole organization.
    index('call_records_number_idx').on(t.phoneNumber, t.organizationId),
    index('call_records_pending_number_idx')
      .on(t.organizationId, t.phoneNumber)
      .where(sql`status = 'pending'`),
    // The dialer's claim: due records of a batch, never-tried ones (null) first.
    index('call_records_due_idx')
      .on(t.batchId, t.nextAttemptAt.nullsFirst())
      .where(sql`status = 'pending'`),
    // Whether a batch has anything left (its completion): small, only the open records.
    index('call_records_open_idx')
      .on(t.batchId)
      .where(sql`status IN ('pending', 'in_progress')`),
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

/** callStatus of a phone log (contract-additions §3). */
export const CALL_STATUSES = [
  'queued',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
  'voicemail',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** One turn of the conversation stored on a phone log. */
export interface PhoneLogTurn {
  role: 'agent' | 'callee';
  text: string;
  startedAt: string;
  /** An agent reply to a caller turn: how long the caller waited for it, and where the time went. */
  latency?: TurnLatency;
}

/**
 * From the caller's end of speech to the reply's first audio, and its parts: recognition (end of
 * speech → words), the model (words → first token) and synthesis (first token → first audio).
 * A part is null when its stage was not seen (a reply that began without model text).
 */
export interface TurnLatency {
  totalMs: number;
  recognitionMs: number | null;
  modelMs: number | null;
  synthesisMs: number | null;
}

/** A private collect_digits entry (the agent's privateDigits), sealed with SecretBox. */
export interface SealedDigits {
  /** How many digits were typed (the model and the transcript hear as much). */
  length: number;
  sealed: string;
}

/**
 * Why the dialer was allowed to place a call: the windows it checked, in the zones it checked
 * them, at the moment it placed it (kept on the phone log as evidence).
 */
export type DialPermit = Record<string, unknown>;

/** Why the voice session ended a call, as the phone log and the call's event say it. */
export type SessionEndedBy =
  'agent' | 'max_duration' | 'service_failure' | 'drain' | 'voicemail' | 'system';

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
    callStatus: text('call_status').$type<CallStatus>().notNull(),
    /** 1 for a record's first attempt, 2 for its first retry… */
    attempt: integer('attempt').notNull().default(1),
    /** Plivo request/Call UUID, Twilio Call SID, Telnyx call_control_id; null until placed. */
    providerCallId: text('provider_call_id'),
    /** E.164 of the calling number used. */
    fromNumber: text('from_number'),
    /** The voice agent that speaks on this attempt (chosen at the claim; kept if deleted). */
    agentId: objectIdRef('agent_id'),
    answeredBy: text('answered_by').$type<'human' | 'machine' | 'unknown'>(),
    /**
     * Who or what answered, as the first seconds on the stream told (AnswerWatch): human,
     * voicemail, mailbox_full, ivr, call_screening, fax or uncertain; null: no stream heard it.
     */
    answerOutcome: text('answer_outcome').$type<AnswerOutcome>(),
    /** How long after the stream's first audio that verdict came. */
    answerOutcomeMs: integer('answer_outcome_ms'),
    endedReason: text('ended_reason'),
    turns: jsonb('turns').$type<PhoneLogTurn[]>().notNull().default([]),
    summary: text('summary'),
    analysis: jsonb('analysis').$type<Record<string, unknown>>(),
    permit: jsonb('permit').$type<DialPermit>(),
    /**
     * While set, the attempt is the dialer's to watch: past it, a call being placed or live with
     * no final callback is reconciled with the provider (never placed again blindly).
     */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    /**
     * When the dialer's last check allowed the call and the provider request was about to go
     * out (null: never sent, so a release spends no attempt and recovery needs no lookup).
     */
    placingAt: timestamp('placing_at', { withTimezone: true }),
    /** When the calling window that allowed the claim closes (checked again before dialing). */
    windowClosesAt: timestamp('window_closes_at', { withTimezone: true }),
    /** Provider lookups recovery made for this attempt, and when it first took it. */
    recoveryLookups: integer('recovery_lookups').notNull().default(0),
    recoveryStartedAt: timestamp('recovery_started_at', { withTimezone: true }),
    placedAt: timestamp('placed_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    callDuration: integer('call_duration').notNull().default(0),
    recordingUrl: text('recording_url'),
    transcript: text('transcript'),
    providerStatus: text('provider_status'),
    /**
     * The number the agent transferred the call to. Set before the provider is asked (the
     * provider fetches the <Dial> from it); cleared again when the provider refuses or the new
     * party does not answer.
     */
    transferredTo: text('transferred_to'),
    /** Why the agent transferred, as the model said (call.transferred's `reason`). */
    transferReason: text('transfer_reason'),
    /**
     * A warm transfer's brief, as the model wrote it: read to the colleague before they take the
     * call, and call.transferred's `summary`. Null for a cold transfer.
     */
    transferBriefing: text('transfer_briefing'),
    /**
     * What the caller typed for the agent's collect_digits, by entry name (call.completed's
     * `collected_digits`). Only entries of an agent without privateDigits: see sealedDigits.
     */
    collectedDigits: jsonb('collected_digits')
      .$type<Record<string, string>>()
      .notNull()
      .default({}),
    /**
     * The entries of an agent with privateDigits, by name, sealed (collected-digits.ts): opened
     * only to deliver call.completed. An entry name is in one of the two columns, never both.
     */
    sealedDigits: jsonb('sealed_digits')
      .$type<Record<string, SealedDigits>>()
      .notNull()
      .default({}),
    /** When the new party answered (call.transferred); null while the transfer only rings. */
    transferredAt: timestamp('transferred_at', { withTimezone: true }),
    /** The calling number (phone record) used. */
    phoneId: objectIdRef('phone_id'),
    /**
     * Why the voice session ended the call, when it did (call.completed's `ended_by`):
     * agent, max_duration, service_failure, drain, voicemail or system.
     */
    sessionEndedBy: text('session_ended_by').$type<SessionEndedBy>(),
    /** With service_failure: the dependency that failed (stt, tts, llm, telephony, media). */
    failedDependency: text('failed_dependency').$type<CallDependency>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('phone_logs_request_uuid_key').on(t.requestUuid),
    index('phone_logs_record_created_idx').on(t.callRecordId, t.createdAt),
    // Concurrency: calls not yet ended, per organization and batch.
    index('phone_logs_live_idx')
      .on(t.organizationId, t.batchId)
      .where(sql`call_status IN ('queued', 'ringing', 'in-progress')`),
    // The dialer's breaker: a batch's attempts that ended in the last minutes.
    index('phone_logs_batch_ended_idx')
      .on(t.batchId, t.endedAt)
      .where(sql`ended_at IS NOT NULL`),
    index('phone_logs_lease_idx')
      .on(t.leaseExpiresAt)
      .where(sql`lease_expires_at IS NOT NULL`),
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
