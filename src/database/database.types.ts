import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/** The one database type every repository is written against, whichever driver is in use. */
export type AppDatabase = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseDriver = 'postgres' | 'pglite';

export interface DatabaseConnection {
  db: AppDatabase;
  driver: DatabaseDriver;
  /** Resolves when the database answers a trivial query within the timeout. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}
