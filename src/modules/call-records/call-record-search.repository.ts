import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../database';
import { contactSearchText } from './call-records.schema';

/** What one indexing step did. */
export interface SearchIndexStep {
  /** Records after the watermark that this step indexed (at most the limit). */
  rows: number;
  /** Whether the watermark moved past them: false when an import moved it back meanwhile. */
  moved: boolean;
}

/** Fills call_record_search behind the batch's search watermark (see batches.searchIndexedAt). */
@Injectable()
export class CallRecordSearchRepository {
  constructor(private readonly database: Database) {}

  /**
   * Indexes the next `limit` records after the watermark and moves it to the last of them, in
   * one statement (one snapshot). The watermark only moves if it is still where this statement
   * read it: an import that committed meanwhile has moved it back before its own records.
   */
  async indexNext(
    organizationId: string,
    batchId: string,
    limit: number,
  ): Promise<SearchIndexStep> {
    // A background job step: it may outlast the request statement timeout under load.
    const result = await this.database.background(() =>
      this.database.db.execute(sql`
      WITH mark AS (
        SELECT search_indexed_at AS at, search_indexed_id AS id FROM batches
        WHERE id = ${batchId} AND organization_id = ${organizationId}
      ), todo AS (
        SELECT cr.id, cr.batch_id, cr.contact, cr.created_at FROM call_records cr, mark
        WHERE cr.batch_id = ${batchId} AND (cr.created_at, cr.id) > (mark.at, mark.id)
        ORDER BY cr.created_at, cr.id
        LIMIT ${limit}
      ), last AS (
        SELECT created_at, id FROM todo ORDER BY created_at DESC, id DESC LIMIT 1
      ), indexed AS (
        INSERT INTO call_record_search (call_record_id, batch_id, search_text)
        SELECT id, batch_id, ${contactSearchText(sql`contact`)} FROM todo
        ON CONFLICT (call_record_id) DO NOTHING
      ), moved AS (
        UPDATE batches b SET search_indexed_at = last.created_at, search_indexed_id = last.id
        FROM last, mark
        WHERE b.id = ${batchId} AND b.search_indexed_at = mark.at AND b.search_indexed_id = mark.id
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM todo)::int AS rows, (SELECT count(*) FROM moved)::int AS moved`),
    );
    const [row] = rowsOf<{ rows: number; moved: number }>(result);
    return { rows: Number(row.rows), moved: Number(row.moved) > 0 };
  }

  /** Fresh planner statistics after indexing many records. */
  async refreshStatistics(): Promise<void> {
    await this.database.background(() => this.database.db.execute(sql`ANALYZE call_record_search`));
  }
}
