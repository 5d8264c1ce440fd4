import type { CallDependency } from '../../common/dependency-failure';
import type { AnswerOutcome } from '@app/contracts';
import type { SessionEndedBy } from './call-records.schema';
import { Injectable } from '@nestjs/common';
import { and, eq, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { Database, rowsOf } from '../../database';
import { BatchCountersRepository } from './batch-counters.repository';
import {
  callRecords,
  phoneLogs,
  type CallStatus,
  type PhoneLogRow,
  type PhoneLogTurn,
  type SealedDigits,
} from './call-records.schema';

/** A call record's state once its attempt ended: another attempt at `nextAttemptAt`, or done. */
export type RecordNextState = Pick<typeof callRecords.$inferInsert, 'status' | 'nextAttemptAt'>;

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
  constructor(
    private readonly database: Database,
    private readonly counters: BatchCountersRepository,
  ) {}

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
        this.counters.moveStatuses(organizationId, record.batchId, {
          ...(record.previous !== null ? { [record.previous]: -1 } : {}),
          [log.callStatus]: 1,
        });
      }
      return log;
    });
  }

  /**
   * Changes an attempt (inside the caller's transaction, the row already locked by
   * AttemptsRepository.lock), in one statement. A new callStatus also moves the record's
   * lastCallStatus and the batch's counters when this attempt is the record's latest. `record`:
   * the record's next state when the attempt ends (AttemptOutcomes.decide, which holds the
   * record's lock), written in the same statement.
   */
  async update(
    log: Pick<PhoneLogRow, 'id' | 'organizationId' | 'callRecordId' | 'batchId' | 'callStatus'>,
    values: Partial<NewPhoneLog>,
    record: RecordNextState | null = null,
  ): Promise<void> {
    const db = this.database.db;
    const logUpdate = db.update(phoneLogs).set(values).where(eq(phoneLogs.id, log.id));
    const next = values.callStatus;
    const statusMoves = next !== undefined && next !== log.callStatus;
    if (!statusMoves && !record) {
      await logUpdate;
      return;
    }
    // The attempt is the record's latest and the record still shows the attempt's old status.
    const latest = (row: SQL) => sql`${row}.last_call_status = ${log.callStatus} AND NOT EXISTS (
      SELECT 1 FROM ${phoneLogs} later WHERE later.call_record_id = ${log.callRecordId}
        AND later.created_at > (SELECT created_at FROM ${phoneLogs} WHERE id = ${log.id}))`;
    // Reading `log` makes PostgreSQL write the attempt's row before the record's, the order
    // of every writer. Without `record` the record's row is not locked yet: the condition is
    // in the WHERE, which PostgreSQL checks again on the row it waited for.
    const recordUpdate = record
      ? db
          .update(callRecords)
          .set({
            ...record,
            ...(statusMoves
              ? {
                  lastCallStatus: sql`CASE WHEN latest.moves THEN ${next} ELSE ${callRecords.lastCallStatus} END`,
                }
              : {}),
          })
          .from(
            sql`(SELECT ${statusMoves ? latest(sql`r`) : sql`false`} AS moves
              FROM ${callRecords} r, log WHERE r.id = ${log.callRecordId}) latest`,
          )
          .where(eq(callRecords.id, log.callRecordId))
          .returning({ moved: sql<boolean>`latest.moves`.as('moved') })
      : db
          .update(callRecords)
          .set({ lastCallStatus: next })
          .from(sql`log`)
          .where(and(eq(callRecords.id, log.callRecordId), latest(sql`${callRecords}`)))
          .returning({ moved: sql<boolean>`true`.as('moved') });
    const result = await db.execute(
      sql`WITH log AS ${logUpdate.returning({ id: phoneLogs.id })}, moved AS ${recordUpdate}
        SELECT moved FROM moved`,
    );
    if (!rowsOf<{ moved: boolean }>(result)[0]?.moved) return;
    this.counters.moveStatuses(log.organizationId, log.batchId, {
      [log.callStatus]: -1,
      [next!]: 1,
    });
  }

  async findById(organizationId: string, id: string): Promise<PhoneLogRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(phoneLogs)
      .where(and(eq(phoneLogs.organizationId, organizationId), eq(phoneLogs.id, id)));
    return row;
  }

  /** The number and uploaded fields of the contact an attempt called. */
  async findCallee(
    organizationId: string,
    callRecordId: string,
  ): Promise<{ phoneNumber: string; contact: Record<string, string> } | undefined> {
    const [row] = await this.database.db
      .select({ phoneNumber: callRecords.phoneNumber, contact: callRecords.contact })
      .from(callRecords)
      .where(and(eq(callRecords.organizationId, organizationId), eq(callRecords.id, callRecordId)));
    return row;
  }

  /** Adds one turn of the conversation as it happens, so post-call analysis finds them all. */
  async appendTurn(organizationId: string, id: string, turn: PhoneLogTurn): Promise<void> {
    await this.database.db
      .update(phoneLogs)
      .set({ turns: sql`${phoneLogs.turns} || ${JSON.stringify([turn])}::jsonb` })
      .where(and(eq(phoneLogs.organizationId, organizationId), eq(phoneLogs.id, id)));
  }

  /**
   * One collect_digits entry under its name, the last wins: the digits as typed, or `sealed`
   * (a private entry; CollectedDigits seals it) in a column of its own.
   */
  async recordDigits(
    organizationId: string,
    id: string,
    name: string,
    entry: { digits: string } | { sealed: SealedDigits },
  ): Promise<void> {
    const add = (column: AnyPgColumn, value: unknown) =>
      sql`${column} || ${JSON.stringify({ [name]: value })}::jsonb`;
    const remove = (column: AnyPgColumn) => sql`${column} - ${name}::text`;
    await this.database.db
      .update(phoneLogs)
      .set(
        'sealed' in entry
          ? {
              sealedDigits: add(phoneLogs.sealedDigits, entry.sealed),
              collectedDigits: remove(phoneLogs.collectedDigits),
            }
          : {
              collectedDigits: add(phoneLogs.collectedDigits, entry.digits),
              sealedDigits: remove(phoneLogs.sealedDigits),
            },
      )
      .where(and(eq(phoneLogs.organizationId, organizationId), eq(phoneLogs.id, id)));
  }

  /** Why the voice session ended the call (before it asks the provider to hang up). */
  async recordSessionEnd(
    organizationId: string,
    id: string,
    endedBy: SessionEndedBy,
    failedDependency: CallDependency | null,
  ): Promise<void> {
    await this.database.db
      .update(phoneLogs)
      .set({ sessionEndedBy: endedBy, failedDependency })
      .where(and(eq(phoneLogs.organizationId, organizationId), eq(phoneLogs.id, id)));
  }

  /**
   * Who or what answered, as the stream told; a machine that takes no conversation also makes
   * the attempt's answeredBy `machine` (it ends as voicemail), whatever the provider guessed.
   */
  async recordAnswerOutcome(
    organizationId: string,
    id: string,
    outcome: AnswerOutcome,
    afterMs: number,
    machine: boolean,
  ): Promise<void> {
    await this.database.db
      .update(phoneLogs)
      .set({
        answerOutcome: outcome,
        answerOutcomeMs: Math.round(afterMs),
        ...(machine ? { answeredBy: 'machine' as const } : {}),
      })
      .where(and(eq(phoneLogs.organizationId, organizationId), eq(phoneLogs.id, id)));
  }

  /** Whether a person (or someone AMD could not tell from a machine) answered any attempt. */
  async recordPicked(organizationId: string, callRecordId: string): Promise<boolean> {
    const [row] = await this.database.db
      .select({ id: phoneLogs.id })
      .from(phoneLogs)
      .where(
        and(
          eq(phoneLogs.organizationId, organizationId),
          eq(phoneLogs.callRecordId, callRecordId),
          isNotNull(phoneLogs.answeredAt),
          or(isNull(phoneLogs.answeredBy), ne(phoneLogs.answeredBy, 'machine')),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /** Calls not yet ended, per status, across every organization (the live-calls metric). */
  async countLive(): Promise<Array<{ status: CallStatus; count: number }>> {
    return this.database.db
      .select({ status: phoneLogs.callStatus, count: sql<number>`count(*)::int` })
      .from(phoneLogs)
      .where(sql`${phoneLogs.callStatus} IN ('queued', 'ringing', 'in-progress')`)
      .groupBy(phoneLogs.callStatus);
  }
}
