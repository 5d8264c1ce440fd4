import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';
import type { QueueStatus } from '../batches/batches.schema';
import { BatchCountersRepository } from '../call-records/batch-counters.repository';
import type { CallStatus, PhoneLogRow } from '../call-records/call-records.schema';

/** Where a record goes when its attempt is given back unplaced. */
export interface RecordReturn {
  status: 'pending' | 'canceled' | 'do_not_call';
  nextAttemptAt: Date | null;
}

/** What may stop a claimed attempt from being dialed, read now. */
export interface DialFacts {
  queueStatus: QueueStatus;
  isDeleted: boolean;
  /** The callee's number is on the organization's DNC list. */
  listed: boolean;
}

type ClaimedLog = Pick<PhoneLogRow, 'id' | 'organizationId' | 'batchId' | 'callRecordId'>;

/** The queries of the last check before dialing, and of an attempt given back unplaced. */
@Injectable()
export class CallPlacementRepository {
  constructor(
    private readonly database: Database,
    private readonly counters: BatchCountersRepository,
  ) {}

  /**
   * The dial check and the mark in one statement: the attempt becomes `placing` (and gets a
   * fresh lease that outlives the provider request) only if, as this statement sees the
   * database, it is still claimed (queued, never sent, not taken by recovery, lease unexpired),
   * its batch is active and within its schedule (startAt come, endAt not), its number is not on
   * the DNC list and its calling window is still open (window_closes_at: endAt at the latest).
   * False: nothing may be sent.
   */
  async markPlacing(
    organizationId: string,
    phoneLogId: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<boolean> {
    const at = sql`${now.toISOString()}::timestamptz`;
    const result = await this.database.db.execute(sql`
      UPDATE phone_logs log
      SET placing_at = ${at}, lease_expires_at = ${leaseUntil.toISOString()}::timestamptz
      FROM call_records record, batches batch
      WHERE log.organization_id = ${organizationId} AND log.id = ${phoneLogId}
        AND record.id = log.call_record_id AND batch.id = log.batch_id
        AND log.call_status = 'queued' AND log.provider_call_id IS NULL
        AND log.placing_at IS NULL AND log.recovery_started_at IS NULL
        AND log.lease_expires_at > ${at}
        AND (log.window_closes_at IS NULL OR log.window_closes_at > ${at})
        AND record.status = 'in_progress'
        AND batch.queue_status = 'active' AND NOT batch.is_deleted
        AND (batch.start_at IS NULL OR batch.start_at <= ${at})
        AND (batch.end_at IS NULL OR batch.end_at > ${at})
        AND NOT EXISTS (SELECT 1 FROM dnc_entries listed
          WHERE listed.organization_id = log.organization_id
            AND listed.phone_number = record.phone_number)
      RETURNING log.id`);
    return rowsOf(result).length > 0;
  }

  /**
   * The batch's state and the number's DNC listing for an attempt (inside its transaction). The
   * batch row is held (FOR KEY SHARE, as AttemptOutcomesRepository.lockRecord does): a cancel
   * committed before is read; one after waits, and cancels the record given back as pending.
   */
  async dialFacts(log: ClaimedLog, phoneNumber: string): Promise<DialFacts> {
    const result = await this.database.db.execute(sql`
      SELECT batch.queue_status, batch.is_deleted,
        EXISTS (SELECT 1 FROM dnc_entries listed WHERE listed.organization_id = batch.organization_id
          AND listed.phone_number = ${phoneNumber}) AS listed
      FROM batches batch
      WHERE batch.organization_id = ${log.organizationId} AND batch.id = ${log.batchId}
      FOR KEY SHARE`);
    const [row] = rowsOf<{ queue_status: QueueStatus; is_deleted: boolean; listed: boolean }>(
      result,
    );
    return { queueStatus: row.queue_status, isDeleted: row.is_deleted, listed: row.listed };
  }

  /**
   * Gives a claimed attempt back as if it had never been claimed (inside the transaction that
   * locked it, AttemptsRepository.lock): its phone log goes, the record gets its attempt back,
   * `status` and `nextAttemptAt`, and the latest status of its previous attempt (if any) again,
   * all in one statement; the batch's counters move at the commit. Answers whether the record
   * was still the claim's.
   */
  async release(log: ClaimedLog, to: RecordReturn): Promise<boolean> {
    const result = await this.database.db.execute(sql`
      WITH gone AS (
        DELETE FROM phone_logs WHERE organization_id = ${log.organizationId} AND id = ${log.id}
        RETURNING id),
      previous AS (
        SELECT call_status FROM phone_logs
        WHERE call_record_id = ${log.callRecordId} AND id <> ${log.id}
        ORDER BY created_at DESC, id DESC LIMIT 1),
      returned AS (
        UPDATE call_records
        SET status = ${to.status}, attempts = greatest(attempts - 1, 0),
          next_attempt_at = ${to.nextAttemptAt?.toISOString() ?? null}::timestamptz,
          last_call_status = (SELECT call_status FROM previous)
        WHERE id = ${log.callRecordId} AND status = 'in_progress'
          AND EXISTS (SELECT 1 FROM gone)
        RETURNING id)
      SELECT (SELECT call_status FROM previous) AS previous,
        EXISTS (SELECT 1 FROM returned) AS returned`);
    const [row] = rowsOf<{ previous: CallStatus | null; returned: boolean }>(result);
    if (!row?.returned) return false;
    this.counters.moveStatuses(log.organizationId, log.batchId, {
      queued: -1,
      ...(row.previous ? { [row.previous]: 1 } : {}),
    });
    if (to.status !== 'pending')
      this.counters.completeIfDoneAtCommit(log.organizationId, log.batchId);
    return true;
  }
}
