import { Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { CallEventBase } from '@app/contracts';
import { Database } from '../../database';
import { batches } from '../batches/batches.schema';
import {
  type CallRecordRow,
  callRecords,
  type PhoneLogRow,
  phoneLogs,
} from '../call-records/call-records.schema';

/** One call attempt with the record and batch it belongs to. */
export interface Attempt {
  log: PhoneLogRow;
  record: Pick<CallRecordRow, 'id' | 'phoneNumber' | 'contact' | 'status' | 'attempts'>;
  batch: { id: string; organizationId: string; recordCalls: boolean };
}

/** The fields of every call event but `call_id`, `sequence` and `occurred_at` (raise() adds them). */
export type CallEventBaseFields = Omit<CallEventBase, 'call_id' | 'sequence' | 'occurred_at'>;

/**
 * Loads attempts for the writers of their state (placement, callbacks, recovery): the phone log
 * row is locked, so two writers of one attempt take turns and each sees the other's result.
 */
@Injectable()
export class AttemptsRepository {
  constructor(private readonly database: Database) {}

  /** Inside a transaction: the attempt, its phone log locked until the commit. */
  async lock(phoneLogId: string): Promise<Attempt | null> {
    if (!this.database.inTransaction) {
      throw new Error('AttemptsRepository.lock() must run inside Database.transaction()');
    }
    const [row] = await this.database.db
      .select({
        log: phoneLogs,
        record: {
          id: callRecords.id,
          phoneNumber: callRecords.phoneNumber,
          contact: callRecords.contact,
          status: callRecords.status,
          attempts: callRecords.attempts,
        },
        batch: {
          id: batches.id,
          organizationId: batches.organizationId,
          recordCalls: batches.recordCalls,
        },
      })
      .from(phoneLogs)
      .innerJoin(callRecords, eq(callRecords.id, phoneLogs.callRecordId))
      .innerJoin(batches, eq(batches.id, phoneLogs.batchId))
      .where(eq(phoneLogs.id, phoneLogId))
      .for('update', { of: phoneLogs });
    return row ?? null;
  }
}

/** What every event of this attempt says about it (libs/contracts CallEventBase). */
export function callEventBase({ log, record, batch }: Attempt): CallEventBaseFields {
  return {
    request_uuid: log.requestUuid,
    batch_id: batch.id,
    call_record_id: record.id,
    attempt: log.attempt,
    direction: 'outbound',
    from_number: log.fromNumber ?? '',
    to_number: record.phoneNumber,
    agent_id: log.agentId,
    variables: record.contact,
  };
}
