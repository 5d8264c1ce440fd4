import { type HandlesJob, JobHandler, JobName, type JobPayloads } from '../../queue';
import { CallRecordSearchRepository } from './call-record-search.repository';

/** Records indexed per statement: each is its own short transaction. */
export const SEARCH_INDEX_CHUNK_ROWS = 10_000;

/** Steps in a row that may lose the race with a concurrent import before the job retries. */
const MAX_STALLED_STEPS = 100;

/** Jobs that index this many records refresh the search table's planner statistics. */
const ANALYZE_AFTER_ROWS = 50_000;

/**
 * Catches a batch's search index up after an import (ContactsImportService enqueues it): chunk by
 * chunk until no record is left after the watermark. Until then the search matches those
 * records directly, so results never depend on how far this job got.
 */
@JobHandler(JobName.IndexCallRecordSearch)
export class IndexCallRecordSearchHandler implements HandlesJob<JobName.IndexCallRecordSearch> {
  constructor(private readonly search: CallRecordSearchRepository) {}

  async handle({
    organizationId,
    batchId,
  }: JobPayloads[JobName.IndexCallRecordSearch]): Promise<void> {
    let indexed = 0;
    let stalled = 0;
    for (;;) {
      const step = await this.search.indexNext(organizationId, batchId, SEARCH_INDEX_CHUNK_ROWS);
      indexed += step.rows;
      if (!step.moved) {
        if (step.rows === 0) break; // nothing after the watermark
        // An import moved the watermark back meanwhile: go again from there.
        stalled += 1;
        if (stalled >= MAX_STALLED_STEPS) throw new Error('Search index kept losing to imports');
        continue;
      }
      stalled = 0;
      if (step.rows < SEARCH_INDEX_CHUNK_ROWS) break;
    }
    if (indexed >= ANALYZE_AFTER_ROWS) await this.search.refreshStatistics();
  }
}
