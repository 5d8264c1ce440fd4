import { Injectable } from '@nestjs/common';
import {
  and,
  asc,
  type Column,
  eq,
  getTableColumns,
  isNull,
  lte,
  not,
  or,
  type SQL,
  sql,
  type SQLWrapper,
} from 'drizzle-orm';
import { newObjectId } from '../../common/object-id';
import { Database } from '../../database';
import { rowsOf } from '../../database/rows';
import { lockDialing } from '../batches/dialing-lock';
import { batches, type BatchRow, type StatusReason } from '../batches/batches.schema';
import {
  type CallRecordRow,
  callRecords,
  type DialPermit,
  phoneLogs,
} from '../call-records/call-records.schema';
import { countMovesUpsert } from '../call-records/batch-counters.repository';
import { speakingAgent } from '../agents/agents.repository';
import { agents, type AgentRow } from '../agents/agents.schema';
import { phoneNumbers, type PhoneNumberRow, providerAccounts } from '../phones/phones.schema';
import { ACCOUNT_CALLS_PER_SECOND } from '../phones/provider-accounts';
import type { Hold } from './claim-plan';
import type { AccountPace } from './number-pacing';
import { attemptsToNumberSince, liveCallToNumber } from './number-attempts';

/** A batch the scheduler may dial: active, not deleted. */
export interface DialingBatch {
  id: string;
  organizationId: string;
}

/** What one claimed attempt's phone log holds beyond what all of the claim's share. */
export interface NewAttempt {
  callRecordId: string;
  attempt: number;
  fromNumber: string;
  phoneId: string;
  permit: DialPermit;
  windowClosesAt: Date;
}

/** A due record, locked for the claim, with what the claim checks it against. */
export interface DueRecord {
  record: CallRecordRow;
  /** Its number is on the organization's DNC list now. */
  listed: boolean;
  /** When the recent attempts to its number were placed (or claimed), in any batch. */
  recent: Date[];
  /** A call to its number has not ended yet, in this batch or another of the organization. */
  liveCall: boolean;
}

/** Everything one claim writes (DialerClaimsRepository.writeClaim). */
export interface ClaimWrites {
  /** Records whose number is on the DNC list: do_not_call. */
  blocked: string[];
  holds: Hold[];
  /** The claimed records' attempts, in pick order. */
  attempts: NewAttempt[];
  /**
   * `claimedAt`: the claim's `now` (the injected Clock), the phone logs' created_at, so the
   * attempts a later claim counts (created_at since a day before its own `now`) are on one clock.
   */
  shared: { agentId: string; claimedAt: Date; leaseExpiresAt: Date };
  /** The numbers' next pacing slots. */
  slots: Array<{ id: string; at: Date }>;
  /** The provider accounts' next pacing slots (their rows locked by lockAccounts). */
  accountSlots: Array<{ id: string; at: Date }>;
  /** The batch's status counter moves. */
  counts: Record<string, number>;
}

export interface BatchWithLiveCalls {
  batch: BatchRow;
  live: { organization: number; batch: number };
}

/**
 * One column of rows as one array parameter, for the claim's set-based writes to unnest: both
 * drivers pass an array the same way, it costs one parameter whatever its length (a claim may
 * hold DIALER_MAX_CONCURRENT_CALLS records), and the planner knows how many rows unnest gives
 * (it guesses 100 for a jsonb recordset, and then read call_records by a full scan).
 */
const column = <T>(
  rows: T[],
  type: 'varchar' | 'text' | 'int' | 'timestamptz',
  value: (row: T) => string | number | null,
): SQL => sql`${sql.param(rows.map(value))}::${sql.raw(type)}[]`;
const iso = (at: Date | null): string | null => at?.toISOString() ?? null;
const anyOf = (target: Column, ids: string[]): SQL =>
  sql`${target} = ANY(${column(ids, 'varchar', (id) => id)})`;

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

  /**
   * Active, live batches within their schedule (startAt come, endAt not) with a record due by
   * `now`, or all of whose records are done.
   */
  async listDialing(now: Date): Promise<DialingBatch[]> {
    const at = sql`${now.toISOString()}::timestamptz`;
    return this.db
      .select({ id: batches.id, organizationId: batches.organizationId })
      .from(batches)
      .where(
        and(
          eq(batches.queueStatus, 'active'),
          not(batches.isDeleted),
          sql`(${batches.startAt} IS NULL OR ${batches.startAt} <= ${at})`,
          sql`(${batches.endAt} IS NULL OR ${batches.endAt} > ${at})`,
          // Something due to claim, or nothing left at all (the batch is then completed). The
          // batch's first pending record in the due index's order decides the first: an
          // EXISTS over `IS NULL OR <= now` was planned as a scan of call_records, whole when
          // nothing was due.
          sql`(EXISTS (SELECT 1 FROM (SELECT ${callRecords.nextAttemptAt} AS at FROM ${callRecords}
                  WHERE ${callRecords.batchId} = ${batches.id} AND ${callRecords.status} = 'pending'
                  ORDER BY ${callRecords.nextAttemptAt} ASC NULLS FIRST LIMIT 1) due
                WHERE due.at IS NULL OR due.at <= ${now.toISOString()}::timestamptz)
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
   * claim; pause, cancel and delete take the organization's lock, so none is missed), with the
   * calls not yet ended (phone_logs_live_idx) of its organization and of the batch itself.
   */
  async findBatchWithLiveCalls(batchId: string): Promise<BatchWithLiveCalls | undefined> {
    // Written out: drizzle leaves a one-table select's columns unqualified, which inside these
    // subqueries would name phone_logs' own columns.
    const live = sql`FROM phone_logs live WHERE live.organization_id = batches.organization_id
      AND live.call_status IN ('queued', 'ringing', 'in-progress')`;
    const [row] = await this.db
      .select({
        batch: batches,
        organizationLive: sql<number>`(SELECT count(*) ${live})`.mapWith(Number),
        batchLive: sql<number>`(SELECT count(*) ${live} AND live.batch_id = batches.id)`.mapWith(
          Number,
        ),
      })
      .from(batches)
      .where(eq(batches.id, batchId));
    return (
      row && {
        batch: row.batch,
        live: { organization: row.organizationLive, batch: row.batchLive },
      }
    );
  }

  /**
   * The agent that speaks on the batch's calls (null: none) and the batch's active calling
   * numbers, least recently used first (the rotation): one query, the agent's row joined with
   * each number (none: one row with a null number).
   */
  async speakingAgentAndNumbers(
    batch: Pick<BatchRow, 'organizationId' | 'agentId' | 'callingNumbers'>,
  ): Promise<{ agent: AgentRow | null; numbers: PhoneNumberRow[] }> {
    const rows = await this.db
      .select({ agent: agents, number: phoneNumbers })
      .from(agents)
      .leftJoin(
        phoneNumbers,
        and(
          eq(phoneNumbers.organizationId, agents.organizationId),
          sql`${phoneNumbers.id} = ANY(${column(batch.callingNumbers, 'varchar', (id) => id)})`,
          eq(phoneNumbers.status, 'active'),
        ),
      )
      .where(speakingAgent(batch.organizationId, batch.agentId))
      .orderBy(sql`${phoneNumbers.nextDialAt} ASC NULLS FIRST`, asc(phoneNumbers.id));
    if (rows.length === 0) return { agent: null, numbers: [] };
    return {
      agent: rows[0].agent,
      numbers: rows.flatMap((row) => (row.number ? [row.number] : [])),
    };
  }

  /**
   * Due pending records, never-tried first, locked; those another claim holds are skipped. FOR
   * NO KEY UPDATE, as the claim changes no key: FOR UPDATE would also skip, for a tick, records
   * another transaction merely references (the search indexer's rows, a phone log insert).
   * With each: whether its number is on the organization's DNC list, when the attempts to its
   * number since `since` were placed (or claimed, if never placed) and whether one is still
   * live, in any batch of the organization. One statement: these are read for the locked rows
   * only (the CTE), in this transaction, after the organization's lock (every claim of the
   * organization commits its queued attempts under it), as the claim's own check at dial time.
   */
  async dueRecords(
    organizationId: string,
    batchId: string,
    now: Date,
    limit: number,
    since: Date,
  ): Promise<DueRecord[]> {
    const locked = this.db
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
    const due = this.db.$with('due').as(locked);
    // The CTE's columns (drizzle's alias proxy), selected as one call_records row.
    const record = Object.fromEntries(
      Object.keys(getTableColumns(callRecords)).map((key) => [
        key,
        Reflect.get(due, key) as unknown,
      ]),
    ) as typeof callRecords._.columns;
    // Written out: inside these subqueries drizzle would leave the CTE's columns unqualified.
    const rows = await this.db
      .with(due)
      .select({
        record,
        listed: sql<boolean>`EXISTS (SELECT 1 FROM dnc_entries listed
          WHERE listed.organization_id = ${organizationId}
            AND listed.phone_number = due.phone_number)`,
        recent: sql<
          string[]
        >`${attemptsToNumberSince(organizationId, sql`due.phone_number`, since)}`,
        liveCall: sql<boolean>`${liveCallToNumber(organizationId, sql`due.phone_number`)}`,
      })
      .from(due)
      .orderBy(sql`due.next_attempt_at ASC NULLS FIRST`, sql`due.id`);
    return rows.map((row) => ({
      record: row.record,
      listed: row.listed,
      recent: row.recent.map((at) => new Date(at)),
      liveCall: row.liveCall,
    }));
  }

  /**
   * The claim's writes in one statement (one round trip, whatever the number of records): the
   * listed records become do_not_call; held ones wait until their `at` (a null `at`, never
   * allowed, closes the record as failed); claimed ones are in_progress with one more attempt and
   * their `queued` phone logs inserted; the numbers and their accounts (locked by lockAccounts)
   * get their next pacing slots; the batch's counters move in key order (countMovesUpsert). The parts touch different rows, and the only
   * rows they lock that the claim does not hold yet are the numbers' and the counters', which no
   * writer takes in the other order, so PostgreSQL's order of the CTEs does not matter. Answers
   * the phone log ids in the order of `writes.attempts`.
   */
  async writeClaim(
    batch: Pick<BatchRow, 'id' | 'organizationId'>,
    writes: ClaimWrites,
  ): Promise<string[]> {
    const { blocked, holds, attempts, slots, accountSlots } = writes;
    const parts: Array<[string, SQLWrapper | undefined]> = [
      ['blocked', blocked.length > 0 ? this.markDoNotCall(blocked) : undefined],
      ['held', holds.length > 0 ? this.hold(holds) : undefined],
      [
        'claimed',
        attempts.length > 0 ? this.markClaimed(attempts.map((a) => a.callRecordId)) : undefined,
      ],
      ['slots', slots.length > 0 ? this.setNextDialAt(phoneNumbers, slots) : undefined],
      [
        'account_slots',
        accountSlots.length > 0 ? this.setNextDialAt(providerAccounts, accountSlots) : undefined,
      ],
      [
        'attempts',
        attempts.length > 0 ? this.insertAttempts(batch, writes.shared, attempts) : undefined,
      ],
      ['counts', countMovesUpsert(this.db, batch.id, writes.counts)],
    ];
    const present = parts.filter((part): part is [string, SQLWrapper] => part[1] !== undefined);
    if (present.length === 0) return [];
    // Drizzle parenthesizes an embedded query builder; insertAttempts and setNextDialAt do so
    // themselves.
    const ctes = present.map(([name, query]) => sql`${sql.raw(name)} AS ${query}`);
    const result = await this.db.execute(sql`WITH ${sql.join(ctes, sql`, `)}
      ${attempts.length > 0 ? sql`SELECT id, call_record_id FROM attempts` : sql`SELECT NULL AS id, NULL AS call_record_id WHERE false`}`);
    // RETURNING promises no order: match the rows back by their record.
    const inserted = new Map(
      rowsOf<{ id: string; call_record_id: string }>(result).map((row) => [
        row.call_record_id,
        row.id,
      ]),
    );
    return attempts.map(({ callRecordId }) => {
      const id = inserted.get(callRecordId);
      if (id === undefined) throw new Error(`no phone log inserted for record ${callRecordId}`);
      return id;
    });
  }

  private markDoNotCall(recordIds: string[]): SQLWrapper {
    return this.db
      .update(callRecords)
      .set({ status: 'do_not_call', nextAttemptAt: null })
      .where(and(anyOf(callRecords.id, recordIds), eq(callRecords.status, 'pending')));
  }

  private hold(holds: Hold[]): SQLWrapper {
    const ids = column(holds, 'varchar', (hold) => hold.id);
    const ats = column(holds, 'timestamptz', (hold) => iso(hold.at));
    return this.db
      .update(callRecords)
      .set({
        status: sql`CASE WHEN hold.at IS NULL THEN 'failed' ELSE ${callRecords.status} END`,
        nextAttemptAt: sql`hold.at`,
      })
      .from(sql`unnest(${ids}, ${ats}) AS hold(id, at)`)
      .where(eq(callRecords.id, sql`hold.id`));
  }

  private markClaimed(recordIds: string[]): SQLWrapper {
    return this.db
      .update(callRecords)
      .set({
        status: 'in_progress',
        attempts: sql`${callRecords.attempts} + 1`,
        nextAttemptAt: null,
        lastCallStatus: 'queued',
      })
      .where(anyOf(callRecords.id, recordIds));
  }

  private insertAttempts(
    batch: Pick<BatchRow, 'id' | 'organizationId'>,
    shared: ClaimWrites['shared'],
    attempts: NewAttempt[],
  ): SQLWrapper {
    const columns = [
      column(attempts, 'varchar', () => newObjectId()),
      column(attempts, 'varchar', (attempt) => attempt.callRecordId),
      column(attempts, 'int', (attempt) => attempt.attempt),
      column(attempts, 'text', (attempt) => attempt.fromNumber),
      column(attempts, 'varchar', (attempt) => attempt.phoneId),
      column(attempts, 'text', (attempt) => JSON.stringify(attempt.permit)),
      column(attempts, 'timestamptz', (attempt) => iso(attempt.windowClosesAt)),
    ];
    return sql`(
      INSERT INTO ${phoneLogs} (id, organization_id, batch_id, call_record_id, call_status,
        attempt, agent_id, from_number, phone_id, permit, window_closes_at, lease_expires_at,
        created_at)
      SELECT a.id, ${batch.organizationId}, ${batch.id}, a.call_record_id, 'queued', a.attempt,
        ${shared.agentId}, a.from_number, a.phone_id, a.permit::jsonb, a.window_closes_at,
        ${shared.leaseExpiresAt.toISOString()}::timestamptz,
        ${shared.claimedAt.toISOString()}::timestamptz
      FROM unnest(${sql.join(columns, sql`, `)})
        AS a(id, call_record_id, attempt, from_number, phone_id, permit, window_closes_at)
      RETURNING id, call_record_id)`;
  }

  /** The next pacing slots of numbers or of provider accounts (both keep `next_dial_at`). */
  private setNextDialAt(
    table: typeof phoneNumbers | typeof providerAccounts,
    slots: Array<{ id: string; at: Date }>,
  ): SQLWrapper {
    const ids = column(slots, 'varchar', (slot) => slot.id);
    const ats = column(slots, 'timestamptz', (slot) => iso(slot.at));
    return sql`(UPDATE ${table} SET next_dial_at = slot.at
      FROM unnest(${ids}, ${ats}) AS slot(id, at) WHERE ${table}.id = slot.id)`;
  }

  /**
   * The provider accounts of the numbers, locked in id order until the claim commits: an account
   * is shared by organizations, whose claims do not share a dialing lock, so its budget is
   * read and moved under its own row's lock (in one order, so two claims never wait in a cycle).
   */
  async lockAccounts(
    numbers: Array<Pick<PhoneNumberRow, 'providerAccountId'>>,
  ): Promise<AccountPace[]> {
    const ids = [
      ...new Set(numbers.flatMap((n) => (n.providerAccountId ? [n.providerAccountId] : []))),
    ];
    if (ids.length === 0) return [];
    const rows = await this.db
      .select({
        id: providerAccounts.id,
        integration: providerAccounts.integration,
        callsPerSecond: providerAccounts.callsPerSecond,
        nextDialAt: providerAccounts.nextDialAt,
      })
      .from(providerAccounts)
      .where(anyOf(providerAccounts.id, ids))
      .orderBy(asc(providerAccounts.id))
      .for('update');
    return rows.map((row) => ({
      id: row.id,
      callsPerSecond: row.callsPerSecond ?? ACCOUNT_CALLS_PER_SECOND[row.integration],
      nextDialAt: row.nextDialAt,
    }));
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
