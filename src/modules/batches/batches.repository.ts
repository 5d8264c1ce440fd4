import { Injectable } from '@nestjs/common';
import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  not,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { escapeLike } from '../../common/page.query';
import { Database } from '../../database';
import { callRecords } from '../call-records/call-records.schema';
import { phoneNumbers } from '../phones/phones.schema';
import { batches, type BatchRow, type QueueStatus, type StatusReason } from './batches.schema';
import { lockDialing } from './dialing-lock';

export type NewBatch = Omit<
  typeof batches.$inferInsert,
  'id' | 'organizationId' | 'createdAt' | 'updatedAt' | 'isDeleted' | 'deletedAt'
>;

@Injectable()
export class BatchesRepository {
  constructor(private readonly database: Database) {}

  async create(organizationId: string, values: NewBatch): Promise<BatchRow> {
    const [row] = await this.database.db
      .insert(batches)
      .values({ ...values, organizationId })
      .returning();
    return row;
  }

  /** A batch that is not deleted. */
  async findLive(organizationId: string, id: string): Promise<BatchRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(batches)
      .where(
        and(eq(batches.organizationId, organizationId), eq(batches.id, id), not(batches.isDeleted)),
      );
    return row;
  }

  /**
   * A live batch named by id alone, in whichever organization holds it: the operator CLI's
   * look-up (an operator names a batch, not its tenant). No route reaches it.
   */
  async findLiveInAnyOrganization(id: string): Promise<BatchRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(batches)
      .where(and(eq(batches.id, id), not(batches.isDeleted)));
    return row;
  }

  /** One page of a user's live batches, newest first, with the total matching. */
  async listForOwner(
    organizationId: string,
    userId: string,
    { page, limit, search }: { page: number; limit: number; search?: string },
  ): Promise<{ rows: BatchRow[]; total: number }> {
    const term = search ? `%${escapeLike(search)}%` : undefined;
    const where = and(
      eq(batches.organizationId, organizationId),
      eq(batches.userId, userId),
      not(batches.isDeleted),
      term ? or(ilike(batches.batchName, term), ilike(batches.queueStatus, term)) : undefined,
    );
    const [rows, [{ total }]] = await Promise.all([
      this.database.db
        .select()
        .from(batches)
        .where(where)
        .orderBy(desc(batches.createdAt), desc(batches.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.database.db.select({ total: count() }).from(batches).where(where),
    ]);
    return { rows, total };
  }

  /** Returns whether a live batch was deleted (after any claim of its organization in progress). */
  softDelete(organizationId: string, id: string, at: Date): Promise<boolean> {
    return this.database.transaction(async () => {
      await lockDialing(this.database, organizationId);
      return this.markDeleted(organizationId, id, at);
    });
  }

  private async markDeleted(organizationId: string, id: string, at: Date): Promise<boolean> {
    const deleted = await this.database.db
      .update(batches)
      .set({ isDeleted: true, deletedAt: at })
      .where(
        and(eq(batches.organizationId, organizationId), eq(batches.id, id), not(batches.isDeleted)),
      )
      .returning({ id: batches.id });
    return deleted.length > 0;
  }

  /** Pause or resume; a pause waits for a claim of the organization in progress (lockDialing). */
  setQueueStatus(
    organizationId: string,
    id: string,
    status: QueueStatus,
    reason: StatusReason | null,
  ) {
    return this.database.transaction(async () => {
      await lockDialing(this.database, organizationId);
      return this.writeQueueStatus(organizationId, id, status, reason);
    });
  }

  private async writeQueueStatus(
    organizationId: string,
    id: string,
    status: QueueStatus,
    reason: StatusReason | null,
  ) {
    const [row] = await this.database.db
      .update(batches)
      .set({ queueStatus: status, statusReason: reason })
      .where(
        and(eq(batches.organizationId, organizationId), eq(batches.id, id), not(batches.isDeleted)),
      )
      .returning();
    return row;
  }

  /**
   * Cancels a batch that is not completed: its pending records become `canceled` (attempts in
   * flight finish and are not retried) and the batch `completed` with statusReason cancelled,
   * in one transaction with the batch row locked. Undefined when it was already completed.
   */
  cancel(organizationId: string, id: string): Promise<BatchRow | undefined> {
    return this.close(organizationId, id, 'cancelled');
  }

  /** Live batches not completed yet whose endAt has come (batches_end_at_idx). */
  listEndDue(now: Date): Promise<Array<Pick<BatchRow, 'id' | 'organizationId'>>> {
    return this.database.db
      .select({ id: batches.id, organizationId: batches.organizationId })
      .from(batches)
      .where(
        and(
          isNotNull(batches.endAt),
          lte(batches.endAt, now),
          not(eq(batches.queueStatus, 'completed')),
          not(batches.isDeleted),
        ),
      )
      .orderBy(asc(batches.endAt), asc(batches.id));
  }

  /**
   * Ends a batch whose endAt has come as cancel ends one: its pending records become
   * `canceled`, the batch `completed` with statusReason end_at_reached; attempts in flight
   * finish and are not retried. Undefined when it was completed already (or its endAt moved).
   */
  endAtEndAt(organizationId: string, id: string, now: Date): Promise<BatchRow | undefined> {
    return this.close(organizationId, id, 'end_at_reached', lte(batches.endAt, now));
  }

  /**
   * Closes a batch that is not completed (and meets `condition`): its pending records become
   * `canceled`, the batch `completed` with `reason`, in one transaction under the dialing lock
   * with the batch row locked.
   */
  private close(
    organizationId: string,
    id: string,
    reason: StatusReason,
    condition?: SQL,
  ): Promise<BatchRow | undefined> {
    return this.database.transaction(async () => {
      await lockDialing(this.database, organizationId);
      const db = this.database.db;
      const [batch] = await db
        .select({ id: batches.id })
        .from(batches)
        .where(
          and(
            eq(batches.organizationId, organizationId),
            eq(batches.id, id),
            not(batches.isDeleted),
            not(eq(batches.queueStatus, 'completed')),
            condition,
          ),
        )
        .for('update');
      if (!batch) return undefined;
      await db
        .update(callRecords)
        .set({ status: 'canceled', nextAttemptAt: null })
        .where(and(eq(callRecords.batchId, id), eq(callRecords.status, 'pending')));
      const [row] = await db
        .update(batches)
        .set({ queueStatus: 'completed', statusReason: reason })
        .where(eq(batches.id, id))
        .returning();
      return row;
    });
  }

  /**
   * The batch's status, its row locked until the commit (FOR NO KEY UPDATE, the lock the append's
   * counter update takes anyway): taken before contacts are appended, so a completion or a
   * cancel either commits first and is read here, or waits and then sees the new records.
   */
  async lockForAppend(
    organizationId: string,
    id: string,
  ): Promise<Pick<BatchRow, 'queueStatus' | 'statusReason'> | undefined> {
    const [row] = await this.database.db
      .select({ queueStatus: batches.queueStatus, statusReason: batches.statusReason })
      .from(batches)
      .where(and(eq(batches.organizationId, organizationId), eq(batches.id, id)))
      .for('no key update');
    return row;
  }

  /**
   * An active batch with no record left to place or in progress becomes completed; one with no
   * records at all stays active (its contacts may still be on their way). Runs inside the
   * caller's transaction. The batch row is locked first, in its own statement (the lock
   * lockForAppend takes): an append holds that row until it commits, so the check (a later
   * statement, a fresh snapshot) sees the records it added, and an append that waited for this
   * completion reads `completed` and reopens the batch.
   */
  async completeIfDone(organizationId: string, id: string): Promise<boolean> {
    const db = this.database.db;
    const inBatch = and(eq(batches.organizationId, organizationId), eq(batches.id, id));
    // The batch row, not lockDialing: attempt endings complete batches without the dialing lock.
    const [active] = await db
      .select({ id: batches.id })
      .from(batches)
      .where(and(inBatch, eq(batches.queueStatus, 'active')))
      .for('no key update');
    if (!active) return false;
    const done = await db
      .update(batches)
      .set({ queueStatus: 'completed' })
      .where(
        and(
          inBatch,
          eq(batches.queueStatus, 'active'),
          sql`NOT EXISTS (SELECT 1 FROM ${callRecords} WHERE ${callRecords.batchId} = ${id}
                AND ${callRecords.status} IN ('pending', 'in_progress'))`,
          sql`EXISTS (SELECT 1 FROM ${callRecords} WHERE ${callRecords.batchId} = ${id})`,
        ),
      )
      .returning({ id: batches.id });
    return done.length > 0;
  }

  /** A batch that completed on its own (not cancelled, not deleted) becomes active again. */
  async reopen(organizationId: string, id: string): Promise<boolean> {
    const reopened = await this.database.db
      .update(batches)
      .set({ queueStatus: 'active' })
      .where(
        and(
          eq(batches.organizationId, organizationId),
          eq(batches.id, id),
          not(batches.isDeleted),
          eq(batches.queueStatus, 'completed'),
          isNull(batches.statusReason),
        ),
      )
      .returning({ id: batches.id });
    return reopened.length > 0;
  }

  /**
   * Removes a phone record from every batch's callingNumbers; a live batch left with none is
   * paused with the reason shown. Returns the ids of the batches it paused.
   */
  async removeCallingNumber(organizationId: string, phoneId: string): Promise<string[]> {
    const inBatches = and(
      eq(batches.organizationId, organizationId),
      sql`${batches.callingNumbers} @> ARRAY[${phoneId}]::text[]`,
    );
    await this.database.db
      .update(batches)
      .set({ callingNumbers: sql`array_remove(${batches.callingNumbers}, ${phoneId})` })
      .where(inBatches);
    const paused = await this.database.db
      .update(batches)
      .set({ queueStatus: 'paused', statusReason: 'no_calling_number' })
      .where(
        and(
          eq(batches.organizationId, organizationId),
          not(batches.isDeleted),
          eq(batches.queueStatus, 'active'),
          sql`cardinality(${batches.callingNumbers}) = 0`,
        ),
      )
      .returning({ id: batches.id });
    return paused.map((row) => row.id);
  }

  /** The given phone records of the organization, with their status. */
  findCallingNumbers(organizationId: string, ids: string[]) {
    return this.database.db
      .select({ id: phoneNumbers.id, status: phoneNumbers.status })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.organizationId, organizationId), inArray(phoneNumbers.id, ids)));
  }
}
