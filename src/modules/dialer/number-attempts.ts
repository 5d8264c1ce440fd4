import { type SQL, sql } from 'drizzle-orm';

/**
 * What the law and the callee count is calls to a number, not to one call record: these read a
 * number's attempts across every batch of its organization (call_records_number_idx, then each
 * record's phone logs by phone_logs_record_created_idx).
 */

/** The times (placed, else claimed) of the attempts to `phoneNumber` since `since`, as a JSON array. */
export const attemptsToNumberSince = (
  organizationId: SQL | string,
  phoneNumber: SQL,
  since: Date,
  exceptLogId?: string,
): SQL => sql`(SELECT coalesce(json_agg(coalesce(log.placed_at, log.created_at)), '[]')
  FROM call_records same JOIN phone_logs log ON log.call_record_id = same.id
  WHERE same.organization_id = ${organizationId} AND same.phone_number = ${phoneNumber}
    AND log.created_at >= ${since.toISOString()}::timestamptz
    ${exceptLogId === undefined ? sql`` : sql`AND log.id <> ${exceptLogId}`})`;

/** Whether a call to `phoneNumber` has not ended yet, in any batch of the organization. */
export const liveCallToNumber = (organizationId: SQL | string, phoneNumber: SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM call_records same JOIN phone_logs live ON live.call_record_id = same.id
  WHERE same.organization_id = ${organizationId} AND same.phone_number = ${phoneNumber}
    AND live.call_status IN ('queued', 'ringing', 'in-progress'))`;
