import { Injectable } from '@nestjs/common';
import { type AnyColumn, and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';
import { ISO_UTC } from '../call-records/call-records.repository';
import { DIGIT_MASK } from '../call-records/collected-digits';
import {
  batchStatusCounts,
  callRecords,
  type CallRecordRow,
  contactSearchText,
  phoneLogs,
} from '../call-records/call-records.schema';
import type { PhoneLogDto } from './dto/batch-details.dto';

export type PhoneLogField =
  'callStatus' | 'callDuration' | 'recordingUrl' | 'transcript' | 'requestUUID' | 'answerOutcome';

export interface CallRecordPageQuery {
  page: number;
  limit: number;
  /** Conditions on each record's latest phone log. */
  filter: Partial<Record<PhoneLogField, string | number | boolean | null>>;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  /** A POSIX regular expression over the contact fields (case-insensitive). */
  search?: string;
  /** The batch's search watermark: records after it are not in call_record_search yet. */
  searchIndexedTo: SearchWatermark;
}

/** A (created_at, id) key of a batch's call records; created_at as PostgreSQL's text. */
export interface SearchWatermark {
  at: string;
  id: string;
}

const LATEST_LOG_COLUMN: Record<Exclude<PhoneLogField, 'callStatus'>, string> = {
  callDuration: 'call_duration',
  recordingUrl: 'recording_url',
  transcript: 'transcript',
  requestUUID: 'request_uuid::text',
  answerOutcome: 'answer_outcome',
};

/** Where a page's total comes from: known already, a status counter, or else counted. */
export interface PageTotal {
  known?: number;
  callStatus?: string;
}

/** A call record of a page with its phone logs, oldest first, already in the response's form. */
export type CallRecordPageRow = Pick<
  CallRecordRow,
  'id' | 'phoneNumber' | 'contact' | 'createdAt'
> & {
  phoneLogs: PhoneLogDto[];
};

// Qualified by hand: drizzle writes a bare "id" in a select list, which pl.id would shadow.
const recordId = sql`${callRecords}.${sql.identifier(callRecords.id.name)}`;

/**
 * A phone log's reply latency over its turns (callTurnLatency's nearest-rank percentiles:
 * percentile_disc), null when no turn carries one.
 */
const turnLatencyOf = sql`(
  SELECT CASE WHEN count(*) > 0 THEN json_build_object(
      'turns', count(*),
      'p50Ms', percentile_disc(0.5) WITHIN GROUP (ORDER BY (t.turn->'latency'->>'totalMs')::int),
      'p95Ms', percentile_disc(0.95) WITHIN GROUP (ORDER BY (t.turn->'latency'->>'totalMs')::int)
    ) END
  FROM jsonb_array_elements(pl.turns) AS t(turn)
  WHERE t.turn->'latency' IS NOT NULL)`;

/**
 * The record's latest phone log's reply latency at `share` (percentile_disc, as turnLatency
 * reports it), null without one: a sort key, computed per record (no index serves it).
 */
const latestTurnLatency = (share: number) => sql`(
  SELECT percentile_disc(${share}::float8) WITHIN GROUP (ORDER BY (t.turn->'latency'->>'totalMs')::int)
  FROM (SELECT pl.turns FROM phone_logs pl WHERE pl.call_record_id = ${callRecords.id}
    ORDER BY pl.created_at DESC, pl.id DESC LIMIT 1) latest,
    jsonb_array_elements(latest.turns) AS t(turn)
  WHERE t.turn->'latency' IS NOT NULL)`;

/** A phone log's private collect_digits entries, each as a mask of its length: never opened. */
const maskedDigitsOf = sql`(
  SELECT coalesce(jsonb_object_agg(d.name, repeat(${DIGIT_MASK}::text, (d.entry->>'length')::int)),
    '{}'::jsonb)
  FROM jsonb_each(pl.sealed_digits) AS d(name, entry))`;

/**
 * The phone logs of the row's call record as JSON in the response's form (one statement for the
 * page and its logs instead of two round trips).
 */
const phoneLogsOf = (organizationId: string) => sql<PhoneLogDto[]>`(
  SELECT coalesce(json_agg(json_build_object(
      '_id', pl.id, 'requestUUID', pl.request_uuid, 'callStatus', pl.call_status,
      'callDuration', pl.call_duration, 'recordingUrl', pl.recording_url,
      'transcript', pl.transcript, 'turns', pl.turns, 'turnLatency', ${turnLatencyOf}, 'summary', pl.summary,
      'analysis', pl.analysis,
      'transferredTo', CASE WHEN pl.transferred_at IS NOT NULL THEN pl.transferred_to END,
      'transferredAt', to_char(pl.transferred_at AT TIME ZONE 'UTC', ${sql.raw(ISO_UTC)}),
      'endedBy', pl.session_ended_by, 'failedDependency', pl.failed_dependency,
      'answerOutcome', pl.answer_outcome, 'answerOutcomeMs', pl.answer_outcome_ms,
      'collectedDigits', pl.collected_digits || ${maskedDigitsOf},
      'createdAt', to_char(pl.created_at AT TIME ZONE 'UTC', ${sql.raw(ISO_UTC)})
    ) ORDER BY pl.created_at, pl.id), '[]'::json)
  FROM ${phoneLogs} pl
  WHERE pl.call_record_id = ${recordId} AND pl.organization_id = ${organizationId})`;

/** Reads a batch's call records with their phone logs for the batch-details operation. */
@Injectable()
export class BatchDetailsRepository {
  constructor(private readonly database: Database) {}

  /**
   * One page of records, each with its phone logs, and the number matching, in one statement:
   * the total is `total.known` when given, else the batch's counter of `total.callStatus`, else
   * counted. Throws PostgreSQL's invalid_regular_expression for a bad search pattern.
   */
  async page(
    organizationId: string,
    batchId: string,
    query: CallRecordPageQuery,
    total: PageTotal,
  ): Promise<{ rows: CallRecordPageRow[]; total: number }> {
    // The id scan leaves the organization out so it stays index-only; the rows read after it and
    // the count are scoped to the organization.
    const inBatch = and(
      eq(callRecords.batchId, batchId),
      query.search ? searchCondition(batchId, query.search, query.searchIndexedTo) : undefined,
      ...Object.entries(query.filter).map(([field, value]) =>
        filterCondition(field as PhoneLogField, value),
      ),
    );
    const direction = query.sortOrder === 'desc' ? desc : asc;
    const sortKey = sortExpression(query.sortBy);
    // A computed latency is null for records without one: those come last either way.
    const order = isLatencySort(query.sortBy)
      ? [sql`${sortKey} ${sql.raw(query.sortOrder === 'desc' ? 'DESC' : 'ASC')} NULLS LAST`]
      : [direction(sortKey)];
    order.push(direction(callRecords.id));
    // Deferred join: the offset walks an index-only scan of ids, and only the page's rows are
    // read from the heap (page 1,000 of a million-row batch costs ~1 ms instead of ~5 ms).
    const pageIds = this.database.db
      .select({ id: callRecords.id })
      .from(callRecords)
      .where(inBatch)
      .orderBy(...order)
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    // Evaluated once (it does not depend on the row) and repeated on every row of the page. The
    // counter needs no organization: the caller read the batch for this organization.
    const totalExpression =
      total.known !== undefined
        ? undefined
        : total.callStatus !== undefined
          ? sql<number>`(SELECT coalesce((SELECT ${batchStatusCounts.count} FROM ${batchStatusCounts}
              WHERE ${batchStatusCounts.batchId} = ${batchId}
                AND ${batchStatusCounts.callStatus} = ${total.callStatus}), 0))`.mapWith(Number)
          : sql<number>`(SELECT count(*) FROM ${callRecords}
              WHERE ${and(eq(callRecords.organizationId, organizationId), inBatch)})`.mapWith(
              Number,
            );
    const rows = await this.database.db
      .select({
        id: callRecords.id,
        phoneNumber: callRecords.phoneNumber,
        contact: callRecords.contact,
        createdAt: callRecords.createdAt,
        phoneLogs: phoneLogsOf(organizationId),
        ...(totalExpression ? { total: totalExpression } : {}),
      })
      .from(callRecords)
      .where(and(eq(callRecords.organizationId, organizationId), inArray(callRecords.id, pageIds)))
      .orderBy(...order);
    if (total.known !== undefined) return { rows, total: total.known };
    if (rows.length > 0) return { rows, total: rows[0].total ?? 0 };
    // A page past the end: the total alone.
    const counted = await this.database.db.execute(sql`SELECT ${totalExpression} AS total`);
    const [{ total: value }] = rowsOf<{ total: unknown }>(counted);
    return { rows, total: Number(value) };
  }
}

/**
 * Records whose contact fields match: through the trigram index up to the watermark, directly
 * after it (the records an import added since the search index job last ran). Newline-sensitive:
 * ^ and $ anchor at each contact field (one per line in the search text).
 */
export function searchCondition(batchId: string, search: string, indexedTo: SearchWatermark): SQL {
  const pattern = sql`('(?n)' || ${search}::text)`;
  return sql`${callRecords.id} IN (
    SELECT s.call_record_id FROM call_record_search s
    WHERE s.batch_id = ${batchId} AND s.search_text ~* ${pattern}
    UNION ALL
    SELECT t.id FROM call_records t
    WHERE t.batch_id = ${batchId}
      AND (t.created_at, t.id) > (${indexedTo.at}::timestamptz, ${indexedTo.id}::varchar)
      AND ${contactSearchText(sql`t.contact`)} ~* ${pattern})`;
}

export function filterCondition(
  field: PhoneLogField,
  value: string | number | boolean | null | undefined,
): SQL {
  if (field === 'callStatus') {
    return value === null
      ? sql`${callRecords.lastCallStatus} IS NULL`
      : eq(callRecords.lastCallStatus, String(value));
  }
  const latest = sql`(SELECT ${sql.raw(LATEST_LOG_COLUMN[field])} FROM phone_logs pl
    WHERE pl.call_record_id = ${callRecords.id} ORDER BY pl.created_at DESC, pl.id DESC LIMIT 1)`;
  if (value === null) return sql`${latest} IS NULL`;
  return field === 'callDuration'
    ? sql`${latest} = ${Number(value)}`
    : sql`${latest} = ${String(value)}`;
}

const isLatencySort = (sortBy: string) =>
  sortBy === 'turnLatencyP50' || sortBy === 'turnLatencyP95';

function sortExpression(sortBy: string): SQL | AnyColumn {
  switch (sortBy) {
    case 'createdAt':
      return callRecords.createdAt;
    case 'phoneNumber':
      return callRecords.phoneNumber;
    case 'callStatus':
      return callRecords.lastCallStatus;
    case 'turnLatencyP50':
      return latestTurnLatency(0.5);
    case 'turnLatencyP95':
      return latestTurnLatency(0.95);
    default:
      return sql`${callRecords.contact} ->> ${sortBy}`;
  }
}
