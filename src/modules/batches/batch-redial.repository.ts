import { Injectable } from '@nestjs/common';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';
import { callRecords } from '../call-records/call-records.schema';
import {
  type CallRecordPageQuery,
  filterCondition,
  type PhoneLogField,
  searchCondition,
  type SearchWatermark,
} from './batch-details.repository';
import { batches, type BatchRow } from './batches.schema';
import { lockDialing } from './dialing-lock';
import type { RedialOutcome } from './dto/redial-batch.dto';

/** Which records of a batch a re-dial makes due again. */
export interface RedialSelection {
  /** The callStatus of their last call. */
  outcomes: readonly RedialOutcome[];
  filter: CallRecordPageQuery['filter'];
  search?: string;
}

/** The queries of a re-dial, each inside its transaction. */
@Injectable()
export class BatchRedialRepository {
  constructor(private readonly database: Database) {}

  /** The organization's dialing lock: a claim in progress finishes first, later ones see this. */
  lockDialing(organizationId: string): Promise<void> {
    return lockDialing(this.database, organizationId);
  }

  /**
   * Makes the selected closed records of the batch due at once as a new attempt series
   * (`attempts_before_series` = their attempts: the retry budgets start again), in one
   * statement; never a record of another batch, one whose number the organization's DNC list
   * holds, or one still pending, in progress, withdrawn or cancelled. Answers how many, and how
   * many of them had completed (no longer counted in callsCompleted).
   */
  async reopenRecords(
    organizationId: string,
    batch: { id: string; searchIndexedTo: SearchWatermark },
    selection: RedialSelection,
  ): Promise<{ redialed: number; completed: number }> {
    const chosen = this.database.db
      .select({ id: callRecords.id, status: callRecords.status })
      .from(callRecords)
      .where(
        and(
          eq(callRecords.batchId, batch.id),
          eq(callRecords.organizationId, organizationId),
          inArray(callRecords.status, ['completed', 'failed']),
          inArray(callRecords.lastCallStatus, [...selection.outcomes]),
          sql`NOT EXISTS (SELECT 1 FROM dnc_entries listed
            WHERE listed.organization_id = ${organizationId}
              AND listed.phone_number = ${callRecords.phoneNumber})`,
          selection.search
            ? searchCondition(batch.id, selection.search, batch.searchIndexedTo)
            : undefined,
          ...Object.entries(selection.filter).map(([field, value]) =>
            filterCondition(field as PhoneLogField, value),
          ),
        ),
      )
      .for('update');
    const result = await this.database.db.execute(sql`
      WITH chosen AS ${chosen},
      reopened AS (
        UPDATE call_records record
        SET status = 'pending', next_attempt_at = NULL, attempts_before_series = record.attempts
        FROM chosen WHERE record.id = chosen.id
        RETURNING chosen.status AS was)
      SELECT count(*)::int AS redialed,
        (count(*) FILTER (WHERE was = 'completed'))::int AS completed
      FROM reopened`);
    const [row] = rowsOf<{ redialed: number; completed: number }>(result);
    return row;
  }

  /**
   * After records were reopened: callsCompleted no longer counts the completed ones, and a batch
   * that had completed on its own becomes active again (a paused one stays paused). The row is
   * taken after the records, as completeIfDone takes it before reading them: a completion that
   * ran meanwhile has committed (and is undone here), or waits and then sees them pending.
   */
  async reactivate(
    organizationId: string,
    batchId: string,
    completedReopened: number,
  ): Promise<BatchRow> {
    const [row] = await this.database.db
      .update(batches)
      .set({
        callsCompleted: sql`${batches.callsCompleted} - ${completedReopened}`,
        queueStatus: sql`CASE WHEN ${batches.queueStatus} = 'completed'
          AND ${batches.statusReason} IS NULL THEN 'active' ELSE ${batches.queueStatus} END`,
      })
      .where(and(eq(batches.organizationId, organizationId), eq(batches.id, batchId)))
      .returning();
    return row;
  }
}
