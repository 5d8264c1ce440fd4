import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Pool } from 'pg';
import type { AppConfig } from '../config';
import { applyMigrations, scriptOverPglite } from './apply-migrations';
import type { AppDatabase, DatabaseConnection } from './database.types';
import { acquireDataDirLock } from './pglite-lock';
import { MIGRATIONS_FOLDER, migratePostgres } from './postgres-migrations';
import { describeUnknown } from '../common/describe-error';
import { withTimeout } from '../common/with-timeout';
import * as schema from './schema';

interface Logger {
  log(message: string): void;
  error(message: string): void;
}

/**
 * Opens PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise, and applies migrations.
 * On PostgreSQL every pooled connection carries the statement timeout (DB_STATEMENT_TIMEOUT_MS);
 * PGlite cannot interrupt a running statement (no timer signals in its WASM build), so search
 * patterns are bounded where they are accepted instead (see search-pattern.ts).
 */
export async function openDatabase(config: AppConfig, logger: Logger): Promise<DatabaseConnection> {
  return config.db.url
    ? openPostgres(config.db.url, config.db.statementTimeoutMs, acquireTimeoutMs(config), logger)
    : openPglite(config.db.pgliteDir, logger);
}

/**
 * How long a query waits for a pooled connection. A request gives up after 5 s (its client
 * would rather see an error); a worker process serves no client, and a job that failed here
 * would be retried with the same load on top, so under a burst (hundreds of messaging jobs on
 * 10 connections) it waits its turn longer.
 */
function acquireTimeoutMs(config: AppConfig): number {
  return config.process.role === 'worker' ? 60_000 : 5_000;
}

async function openPostgres(
  url: string,
  statementTimeoutMs: number,
  connectionTimeoutMillis: number,
  logger: Logger,
): Promise<DatabaseConnection> {
  await migratePostgres(url).done;
  const pool = new Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis,
    statement_timeout: statementTimeoutMs,
  });
  // A lost connection (a server restart, a failover, pg_terminate_backend) makes its client emit
  // 'error'. The pool listens only while the client is idle in it; one a transaction holds
  // between statements has no listener of the pool's, and an unheard 'error' ends the process.
  // So every client gets its own from the start; the query in flight, if any, fails on its own.
  pool.on('connect', (client) =>
    client.on('error', (error) =>
      logger.error(`PostgreSQL connection error: ${JSON.stringify(describeUnknown(error))}`),
    ),
  );
  // The same error of an idle client, passed on by the pool: logged above already.
  pool.on('error', () => undefined);
  const db = drizzlePostgres(pool, { schema });
  logger.log(`Database: PostgreSQL (DATABASE_URL), statement timeout ${statementTimeoutMs} ms`);
  return {
    db: db as unknown as AppDatabase,
    driver: 'postgres',
    ping: (timeoutMs) =>
      withTimeout(
        pool.query('SELECT 1').then(() => undefined),
        timeoutMs,
      ),
    close: () => pool.end(),
  };
}

async function openPglite(dataDir: string, logger: Logger): Promise<DatabaseConnection> {
  const release = acquireDataDirLock(dataDir);
  try {
    const client = await PGlite.create(dataDir, { extensions: { btree_gin, pg_trgm } });
    const db = drizzlePglite(client, { schema });
    await applyMigrations(scriptOverPglite(client), MIGRATIONS_FOLDER);
    logger.log(`Database: embedded PGlite at ${dataDir}`);
    return {
      db: db as unknown as AppDatabase,
      driver: 'pglite',
      ping: (timeoutMs) =>
        withTimeout(
          client.query('SELECT 1').then(() => undefined),
          timeoutMs,
        ),
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
