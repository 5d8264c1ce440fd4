import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { Database } from '../../database';
import { batchStatusCounts, callRecords, phoneLogs, type PhoneLogRow } from './call-records.schema';

export type NewPhoneLog = Omit<
  typeof phoneLogs.$inferInsert,
  'id' | 'organizationId' | 'batchId' | 'callRecordId'
>;

/**
 * Writes call attempts. Every write also moves the record's lastCallStatus and the batch's
 * per-status counters in the same transaction, so filtered totals never need a count.
 */
@Injectable()
export class PhoneLogsRepository {
  constructor(private readonly database: Database) {}

  append(organizationId: string, callRecordId: string, values: NewPhoneLog): Promise<PhoneLogRow> {
    return this.database.transaction(async () => {
      const db = this.database.db;
      const [record] = await db
        .select({ batchId: callRecords.batchId, previous: callRecords.lastCallStatus })
        .from(callRecords)
        .where(
          and(eq(callRecords.organizationId, organizationId), eq(callRecords.id, callRecordId)),
        )
        .for('update');
      if (!record) throw new Error('call record not found');
      const [log] = await db
        .insert(phoneLogs)
        .values({ ...values, organizationId, batchId: record.batchId, callRecordId })
        .returning();
      if (record.previous !== log.callStatus) {
        await db
          .update(callRecords)
          .set({ lastCallStatus: log.callStatus })
          .where(eq(callRecords.id, callRecordId));
        if (record.previous !== null) await this.bump(record.batchId, record.previous, -1);
        await this.bump(record.batchId, log.callStatus, 1);
      }
      return log;
    });
  }

  private async bump(batchId: string, callStatus: string, delta: number): Promise<void> {
    await this.database.db
      .insert(batchStatusCounts)
      .values({ batchId, callStatus, count: delta })
      .onConflictDoUpdate({
        target: [batchStatusCounts.batchId, batchStatusCounts.callStatus],
        set: { count: sql`${batchStatusCounts.count} + ${delta}` },
      });
  }
}
