import { Injectable } from '@nestjs/common';
import { and, asc, eq, gte, inArray, isNull, lte, not, or, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { rowsOf } from '../../database/rows';
import { lockDialing } from '../batches/dialing-lock';
import { batches, type BatchRow, type StatusReason } from '../batches/batches.schema';
import { type CallRecordRow, callRecords, phoneLogs } from '../call-records/call-records.schema';
import { dncEntries } from '../dnc/dnc.schema';
import { phoneNumbers, type PhoneNumberRow } from '../phones/phones.schema';

/** A batch the scheduler may dial: active, not deleted. */
export interface DialingBatch {
  id: string;
  organizationId: string;
}

/**
 * The queries of the dialer's claim transaction (docs/dialer.md, "Claim"). Every method but
 * listDialing runs inside DialerClaims' transaction.
 */
@Injectable()
export class DialerClaimsRepository {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** Active, live batches with a record due by `now`, or all of whose records are done. */
  async listDialing(now: Date): Promise<DialingBatch[]> {
    return this.db
      .select({ id: batches.id, organizationId: batches.organizationId })
      .from(batches)
      .where(
        and(
          eq(batches.queueStatus, 'active'),
          not(batches.isDeleted),
          // Something due to claim, or nothing left at all (the batch is then completed).
          sql`(EXISTS (SELECT 1 FROM ${callRecords} WHERE ${callRecords.batchId} = ${batches.id}
                AND ${callRecords.status} = 'pending'
                AND (${callRecords.nextAttemptAt} IS NULL
                  OR ${callRecords.nextAttemptAt} <= ${now.toISOString()}::timestamptz))
              OR (NOT EXISTS (SELECT 1 FROM ${callRecords} WHERE ${callRecords.batchId} = ${batches.id}
                  AND ${callRecords.status} IN ('pending', 'in_progress'))
                AND EXISTS (SELECT 1 FROM ${callRecords} WHERE ${callRecords.batchId} = ${batches.id})))`,
        ),
      )
      .orderBy(asc(batches.organizationId), asc(batches.createdAt), asc(batches.id));
  }

  /** Serialises the claims of one organization until the commit (capacity and pacing). */
  lockOrganization(organizationId: string): Promise<void> {
    return lockDialing(this.database, organizationId);
  }

  /**
   * The batch row, read (not locked: an attempt ending updates it, and must not wait for a
   * claim). Pause, cancel and delete take the organization's lock, so none is missed.
   */
  async findBatch(batchId: string): Promise<BatchRow | undefined> {
    const [row] = await this.db.select().from(batches).where(eq(batches.id, batchId));
    return row;
  }

  /** Calls not yet ended (phone_logs_live_idx): the organization's and this batch's. */
  async liveCalls(
    organizationId: string,
    batchId: string,
  ): Promise<{ organization: number; batch: number }> {
    const result = await this.db.execute(sql`
      SELECT count(*)::int AS organization,
        (count(*) FILTER (WHERE batch_id = ${batchId}))::int AS batch
      FROM phone_logs
      WHERE organization_id = ${organizationId}
        AND call_status IN ('queued', 'ringing', 'in-progress')`);
    return rowsOf<{ organization: number; batch: number }>(result)[0];
  }

  /** The batch's active calling numbers, least recently used first (the rotation). */
  activeNumbers(organizationId: string, ids: string[]): Promise<PhoneNumberRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(phoneNumbers)
      .where(
        and(
          eq(phoneNumbers.organizationId, organizationId),
          inArray(phoneNumbers.id, ids),
          eq(phoneNumbers.status, 'active'),
        ),
      )
      .orderBy(sql`${phoneNumbers.nextDialAt} ASC NULLS FIRST`, asc(phoneNumbers.id));
  }

  /**
   * Due pending records, never-tried first, locked; those another claim holds are skipped. FOR
   * NO KEY UPDATE, as the claim changes no key: FOR UPDATE would also skip, for a tick, records
   * another transaction merely references (the search indexer's rows, a phone log insert).
   */
  dueRecords(batchId: string, now: Date, limit: number): Promise<CallRecordRow[]> {
    return this.db
      .select()
      .from(callRecords)
      .where(
        and(
          eq(callRecords.batchId, batchId),
          eq(callRecords.status, 'pending'),
          or(isNull(callRecords.nextAttemptAt), lte(callRecords.nextAttemptAt, now)),
        ),
      )
      .orderBy(sql`${callRecords.nextAttemptAt} ASC NULLS FIRST`, asc(callRecords.id))
      .limit(limit)
      .for('no key update', { of: callRecords, skipLocked: true });
  }

  /** Which of these numbers are on the organization's DNC list, read in this transaction. */
  async onDncList(organizationId: string, numbers: string[]): Promise<Set<string>> {
    if (numbers.length === 0) return new Set();
    const rows = await this.db
      .select({ phoneNumber: dncEntries.phoneNumber })
      .from(dncEntries)
      .where(
        and(
          eq(dncEntries.organizationId, organizationId),
          inArray(dncEntries.phoneNumber, numbers),
        ),
      );
    return new Set(rows.map((row) => row.phoneNumber));
  }

  /** When each record's attempts since `since` were placed (or claimed, if never placed). */
  async recentAttempts(recordIds: string[], since: Date): Promise<Map<string, Date[]>> {
    const out = new Map<string, Date[]>();
    if (recordIds.length === 0) return out;
    const rows = await this.db
      .select({
        callRecordId: phoneLogs.callRecordId,
        at: sql<Date>`coalesce(${phoneLogs.placedAt}, ${phoneLogs.createdAt})`.mapWith(
          (value: string | Date) => new Date(value),
        ),
      })
      .from(phoneLogs)
      .where(and(inArray(phoneLogs.callRecordId, recordIds), gte(phoneLogs.createdAt, since)));
    for (const row of rows)
      out.set(row.callRecordId, [...(out.get(row.callRecordId) ?? []), row.at]);
    return out;
  }

  async markDoNotCall(recordIds: string[]): Promise<void> {
    if (recordIds.length === 0) return;
    await this.db
      .update(callRecords)
      .set({ status: 'do_not_call', nextAttemptAt: null })
      .where(and(inArray(callRecords.id, recordIds), eq(callRecords.status, 'pending')));
  }

  /** Not allowed now: the record waits until `at`; null (never allowed) closes it as failed. */
  async holdUntil(recordId: string, at: Date | null): Promise<void> {
    await this.db
      .update(callRecords)
      .set(at ? { nextAttemptAt: at } : { status: 'failed', nextAttemptAt: null })
      .where(eq(callRecords.id, recordId));
  }

  /** The record is being dialed: in_progress, one more attempt, its latest status `queued`. */
  async markClaimed(recordId: string): Promise<void> {
    await this.db
      .update(callRecords)
      .set({
        status: 'in_progress',
        attempts: sql`${callRecords.attempts} + 1`,
        nextAttemptAt: null,
        lastCallStatus: 'queued',
      })
      .where(eq(callRecords.id, recordId));
  }

  /** The claimed attempt's phone log (its counters are moved once per claim, in key order). */
  async insertAttempt(
    record: Pick<CallRecordRow, 'id' | 'organizationId' | 'batchId'>,
    values: Omit<typeof phoneLogs.$inferInsert, 'organizationId' | 'batchId' | 'callRecordId'>,
  ): Promise<string> {
    const [row] = await this.db
      .insert(phoneLogs)
      .values({
        ...values,
        organizationId: record.organizationId,
        batchId: record.batchId,
        callRecordId: record.id,
      })
      .returning({ id: phoneLogs.id });
    return row.id;
  }

  async setNextDialAt(phoneId: string, at: Date): Promise<void> {
    await this.db.update(phoneNumbers).set({ nextDialAt: at }).where(eq(phoneNumbers.id, phoneId));
  }

  /** Pauses an active batch with the reason shown (no_agent, no_calling_number, failure_rate). */
  async pause(batchId: string, reason: StatusReason): Promise<boolean> {
    const paused = await this.db
      .update(batches)
      .set({ queueStatus: 'paused', statusReason: reason })
      .where(and(eq(batches.id, batchId), eq(batches.queueStatus, 'active')))
      .returning({ id: batches.id });
    return paused.length > 0;
  }
}
