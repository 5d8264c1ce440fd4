import { Injectable } from '@nestjs/common';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { rowsOf } from '../../database/rows';
import { phoneLogs } from '../call-records/call-records.schema';
import { phoneNumbers, type PhoneNumberRow } from '../phones/phones.schema';
import type { Integration } from '../telephony/telephony.types';

/** An attempt whose lease expired, with the number that placed it (null if since deleted). */
export interface ExpiredAttempt {
  id: string;
  organizationId: string;
  providerCallId: string | null;
  /** +E.164 called from (null before the claim chose a number) and to. */
  fromNumber: string | null;
  toNumber: string;
  placedAt: Date | null;
  /** When its provider request started (null: it never did). */
  placingAt: Date | null;
  /** Lookups recovery made for it before this pass, and when recovery first took it. */
  lookups: number;
  recoveringSince: Date;
  phone: PhoneNumberRow | null;
}

@Injectable()
export class AttemptRecoveryRepository {
  constructor(private readonly database: Database) {}

  /**
   * Takes up to `limit` attempts of one provider whose lease expired by `now`
   * (phone_logs_lease_idx) and moves their lease to `until`, in one statement: a second
   * recovery pass (another process) skips them until then, so one attempt is reconciled by one
   * pass at a time. Attempts that need no lookup (no provider call id, or a number since
   * deleted) go to whichever provider's pass comes first. The first take also stamps when
   * recovery started (its time limit counts from there).
   */
  async takeExpired(
    integration: Integration,
    now: Date,
    until: Date,
    limit: number,
  ): Promise<ExpiredAttempt[]> {
    // Ended by a callback meanwhile: nothing left to watch.
    await this.database.db.execute(sql`
      UPDATE phone_logs SET lease_expires_at = NULL
      WHERE lease_expires_at <= ${now.toISOString()}::timestamptz
        AND call_status NOT IN ('queued', 'ringing', 'in-progress')`);
    const result = await this.database.db.execute(sql`
      UPDATE phone_logs SET lease_expires_at = ${until.toISOString()}::timestamptz,
        recovery_started_at = coalesce(recovery_started_at, ${now.toISOString()}::timestamptz)
      WHERE id IN (
        SELECT log.id FROM phone_logs log LEFT JOIN phone_numbers phone ON phone.id = log.phone_id
        WHERE log.lease_expires_at <= ${now.toISOString()}::timestamptz
          AND log.call_status IN ('queued', 'ringing', 'in-progress')
          AND (log.provider_call_id IS NULL OR phone.id IS NULL
            OR phone.integration = ${integration})
        ORDER BY log.lease_expires_at
        LIMIT ${limit}
        FOR UPDATE OF log SKIP LOCKED)
      RETURNING id, organization_id, provider_call_id, phone_id, from_number, placed_at,
        placing_at, recovery_lookups, recovery_started_at,
        (SELECT phone_number FROM call_records WHERE call_records.id = call_record_id) AS to_number`);
    const rows = rowsOf<{
      id: string;
      organization_id: string;
      provider_call_id: string | null;
      phone_id: string | null;
      from_number: string | null;
      placed_at: string | Date | null;
      placing_at: string | Date | null;
      recovery_lookups: number;
      recovery_started_at: string | Date;
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
      placingAt: row.placing_at === null ? null : new Date(row.placing_at),
      lookups: Number(row.recovery_lookups),
      recoveringSince: new Date(row.recovery_started_at),
      phone: (row.phone_id && byId.get(row.phone_id)) || null,
    }));
  }

  /**
   * After a lookup that told no outcome (alive, or the provider could not answer): one more
   * lookup counted, and the lease moved to the next one.
   */
  async lookedUp(organizationId: string, id: string, until: Date): Promise<void> {
    await this.database.db
      .update(phoneLogs)
      .set({ leaseExpiresAt: until, recoveryLookups: sql`${phoneLogs.recoveryLookups} + 1` })
      .where(and(eq(phoneLogs.organizationId, organizationId), eq(phoneLogs.id, id)));
  }
}
