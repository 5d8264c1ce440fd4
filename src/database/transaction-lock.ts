import { sql } from 'drizzle-orm';
import type { Database } from './database.service';

/**
 * Holds an advisory lock on (scope, key) until the current transaction ends: the one way
 * writers that must not interleave (per organization, say) take turns without a row to lock.
 */
export async function lockUntilCommit(
  database: Database,
  scope: string,
  key: string,
): Promise<void> {
  if (!database.inTransaction) {
    throw new Error(`lockUntilCommit(${scope}) must run inside Database.transaction()`);
  }
  await database.db.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`,
  );
}
