import { Injectable } from '@nestjs/common';
import { eq, inArray, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { rowsOf } from '../../database/rows';
import { phoneLogs } from '../call-records/call-records.schema';
import { phoneNumbers, type PhoneNumberRow } from '../phones/phones.schema';

/** An attempt whose lease expired, with the number that placed it (null if since deleted). */
export interface ExpiredAttempt {
  id: string;
  organizationId: string;
  providerCallId: string | null;
  /** +E.164 called from (null before the claim chose a number) and to. */
  fromNumber: string | null;
  toNumber: string;
  placedAt: Date | null;
  phone: PhoneNumberRow | null;
}

@Injectable()
export class AttemptRecoveryRepository {
  constructor(private readonly database: Database) {}

  /**
   * Takes up to `limit` attempts whose lease expired by `now` (phone_logs_lease_idx) and moves
   * their lease to `until`, in one statement: a second recovery pass (another process) skips
   * them until then, so one attempt is reconciled by one pass at a time.
   */
  async takeExpired(now: Date, until: Date, limit: number): Promise<ExpiredAttempt[]> {
    // Ended by a callback meanwhile: nothing left to watch.
    await this.database.db.execute(sql`
      UPDATE phone_logs SET lease_expires_at = NULL
      WHERE lease_expires_at <= ${now.toISOString()}::timestamptz
        AND call_status NOT IN ('queued', 'ringing', 'in-progress')`);
    const result = await this.database.db.execute(sql`
      UPDATE phone_logs SET lease_expires_at = ${until.toISOString()}::timestamptz
      WHERE id IN (
        SELECT id FROM phone_logs
        WHERE lease_expires_at <= ${now.toISOString()}::timestamptz
          AND call_status IN ('queued', 'ringing', 'in-progress')
        ORDER BY lease_expires_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, organization_id, provider_call_id, phone_id, from_number, placed_at,
        (SELECT phone_number FROM call_records WHERE call_records.id = call_record_id) AS to_number`);
    const rows = rowsOf<{
      id: string;
      organization_id: string;
      provider_call_id: string | null;
      phone_id: string | null;
      from_number: string | null;
      placed_at: string | Date | null;
      to_number: string;
    }>(result);
    const phoneIds = [...new Set(rows.flatMap((row) => (row.phone_id ? [row.phone_id] : [])))];
    const phones = phoneIds.length
      ? await this.database.db.select().from(phoneNumbers).where(inArray(phoneNumbers.id, phoneIds))
      : [];
    const byId = new Map(phones.map((phone) => [phone.id, phone]));
    return rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      providerCallId: row.provider_call_id,
      fromNumber: row.from_number,
      toNumber: row.to_number,
      placedAt: row.placed_at === null ? null : new Date(row.placed_at),
      phone: (row.phone_id && byId.get(row.phone_id)) || null,
    }));
  }

  /** A leased attempt's lease moves (still alive at the provider: check again later). */
  async extendLease(id: string, until: Date): Promise<void> {
    await this.database.db
      .update(phoneLogs)
      .set({ leaseExpiresAt: until })
      .where(eq(phoneLogs.id, id));
  }
}
