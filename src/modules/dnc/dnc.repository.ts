import { Injectable } from '@nestjs/common';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  like,
  not,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { escapeLike } from '../../common/page.query';
import { newObjectId } from '../../common/object-id';
import { Database, rowsOf } from '../../database';
import { batches } from '../batches/batches.schema';
import { lockDialing } from '../batches/dialing-lock';
import { callRecords, phoneLogs } from '../call-records/call-records.schema';
import { dncEntries, type DncEntryRow } from './dnc.schema';

export type NewDncEntry = Omit<
  typeof dncEntries.$inferInsert,
  'id' | 'organizationId' | 'createdAt'
>;

/** Where an export page resumes: the last entry's created_at as PostgreSQL prints it, and id. */
export interface DncExportCursor {
  createdAt: string;
  id: string;
}

export type DncExportRow = DncEntryRow & { cursor: string };

/** What an import lists for a number. */
export interface ImportedDncEntry {
  phoneNumber: string;
  type: string | null;
  source: string | null;
}

export interface DncListPage {
  page: number;
  limit: number;
  search?: string;
}

/** The DNC list, and the reads and writes of calling data that adding a number involves. */
@Injectable()
export class DncRepository {
  constructor(private readonly database: Database) {}

  /**
   * The organization's dialing lock until the commit: a listing waits for a claim in progress
   * and every later claim sees it, so no claim dials a number on a snapshot from before it.
   */
  lockDialing(organizationId: string): Promise<void> {
    return lockDialing(this.database, organizationId);
  }

  /** The phone log of that call in that batch, with the number of its call record. */
  async findCall(organizationId: string, batchId: string, requestUuid: string) {
    const [row] = await this.database.db
      .select({
        phoneLogId: phoneLogs.id,
        callRecordId: phoneLogs.callRecordId,
        requestUuid: phoneLogs.requestUuid,
        recordingUrl: phoneLogs.recordingUrl,
        transcript: phoneLogs.transcript,
        phoneNumber: callRecords.phoneNumber,
      })
      .from(phoneLogs)
      .innerJoin(callRecords, eq(callRecords.id, phoneLogs.callRecordId))
      .where(
        and(
          eq(phoneLogs.organizationId, organizationId),
          eq(phoneLogs.batchId, batchId),
          eq(phoneLogs.requestUuid, requestUuid),
        ),
      );
    return row;
  }

  /** Undefined when the number is already listed: the unique index decides, also under a race. */
  async create(organizationId: string, values: NewDncEntry): Promise<DncEntryRow | undefined> {
    const [row] = await this.database.db
      .insert(dncEntries)
      .values({ ...values, organizationId })
      .onConflictDoNothing({ target: [dncEntries.organizationId, dncEntries.phoneNumber] })
      .returning();
    return row;
  }

  /**
   * Lists the numbers not listed yet, in one statement whatever their count (the rows travel
   * as one JSON parameter); returns those it listed. A number already listed (also by a
   * concurrent request) is skipped by the unique index.
   */
  async createMany(
    organizationId: string,
    createdByUserId: string | null,
    entries: readonly ImportedDncEntry[],
  ): Promise<string[]> {
    if (entries.length === 0) return [];
    const rows = JSON.stringify(
      entries.map(({ phoneNumber, type, source }) => [newObjectId(), phoneNumber, type, source]),
    );
    const result = await this.database.db.execute(sql`
      INSERT INTO dnc_entries (id, organization_id, phone_number, type, source, created_by_user_id)
      SELECT e->>0, ${organizationId}, e->>1, e->>2, e->>3, ${createdByUserId}
      FROM jsonb_array_elements(${rows}::jsonb) AS e
      ON CONFLICT (organization_id, phone_number) DO NOTHING
      RETURNING phone_number`);
    return rowsOf<{ phone_number: string }>(result).map((row) => row.phone_number);
  }

  /**
   * Takes the numbers out of the queue of every active or paused (not deleted) batch of the
   * organization: their pending call records become do_not_call. Returns how many changed.
   */
  async markPendingAsDoNotCall(
    organizationId: string,
    phoneNumbers: readonly string[],
  ): Promise<number> {
    if (phoneNumbers.length === 0) return 0;
    const liveBatches = this.database.db
      .select({ id: batches.id })
      .from(batches)
      .where(
        and(
          eq(batches.organizationId, organizationId),
          not(batches.isDeleted),
          inArray(batches.queueStatus, ['active', 'paused']),
        ),
      );
    const changed = await this.database.db
      .update(callRecords)
      .set({ status: 'do_not_call' })
      .where(
        and(
          eq(callRecords.organizationId, organizationId),
          inArray(callRecords.phoneNumber, [...phoneNumbers]),
          eq(callRecords.status, 'pending'),
          inArray(callRecords.batchId, liveBatches),
        ),
      )
      .returning({ id: callRecords.id });
    return changed.length;
  }

  async list(
    organizationId: string,
    { page, limit, search }: DncListPage,
  ): Promise<{ rows: DncEntryRow[]; total: number }> {
    const where = and(eq(dncEntries.organizationId, organizationId), searchCondition(search));
    const [rows, [{ total }]] = await Promise.all([
      this.database.db
        .select()
        .from(dncEntries)
        .where(where)
        .orderBy(desc(dncEntries.createdAt), desc(dncEntries.id))
        .limit(limit)
        .offset((page - 1) * limit),
      this.database.db.select({ total: count() }).from(dncEntries).where(where),
    ]);
    return { rows, total };
  }

  async findByNumber(
    organizationId: string,
    phoneNumber: string,
  ): Promise<DncEntryRow | undefined> {
    const [row] = await this.database.db
      .select()
      .from(dncEntries)
      .where(
        and(eq(dncEntries.organizationId, organizationId), eq(dncEntries.phoneNumber, phoneNumber)),
      );
    return row;
  }

  /** The next entries in creation order (keyset: one index range per page, whatever the size). */
  exportPage(
    organizationId: string,
    after: DncExportCursor | undefined,
    limit: number,
  ): Promise<DncExportRow[]> {
    const resume = after
      ? sql`(${dncEntries.createdAt}, ${dncEntries.id}) > (${after.createdAt}::timestamptz, ${after.id})`
      : undefined;
    return this.database.db
      .select({
        ...getTableColumns(dncEntries),
        cursor: sql<string>`${dncEntries.createdAt}::text`,
      })
      .from(dncEntries)
      .where(and(eq(dncEntries.organizationId, organizationId), resume))
      .orderBy(asc(dncEntries.createdAt), asc(dncEntries.id))
      .limit(limit);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.database.db
      .delete(dncEntries)
      .where(and(eq(dncEntries.organizationId, organizationId), eq(dncEntries.id, id)))
      .returning({ id: dncEntries.id });
    return deleted.length > 0;
  }
}

/** Digits of the text against the number; the text itself against the type. */
function searchCondition(search: string | undefined): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  const digits = text.replace(/\D/g, '');
  const byType = ilike(dncEntries.type, `%${escapeLike(text)}%`);
  return digits ? or(like(dncEntries.phoneNumber, `%${digits}%`), byType) : byType;
}
