import { join } from 'node:path';
import { Client } from 'pg';
import { applyMigrations, scriptOverPostgres } from './apply-migrations';

/** Migrations are plain SQL files; the build copies them next to the compiled code. */
export const MIGRATIONS_FOLDER = join(__dirname, 'migrations');

// Any constant works; it only has to be the same in every process of the service.
const MIGRATION_LOCK_ID = 727_274_001;

export interface MigrationRun {
  /** The pending migrations' SQL is on the wire (or nothing was pending, or the run failed). */
  sent: Promise<void>;
  /** Applied, or why not. */
  done: Promise<void>;
}

/** One run per database at a time in this process: `main` starts it, opening the database joins it. */
const running = new Map<string, MigrationRun>();

/**
 * Applies the migrations on a connection of their own, without the statement timeout: waiting
 * for another process's migration lock, or building an index on a large table, takes as long
 * as it takes. Several processes (api, worker) may start together; one migrates, the others wait.
 *
 * `main` starts this before it loads the app and waits only for `sent`: loading blocks the
 * event loop for most of a second, and PostgreSQL applies a new database's migrations meanwhile
 * on its own core, as the whole run is one query that needs nothing more from Node.
 */
export function migratePostgres(url: string): MigrationRun {
  const current = running.get(url);
  if (current) return current;
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const done = (async () => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    // Lost between two statements, the connection errors the client with no query to fail: heard
    // here, it fails the next statement (and the start) instead of ending the process unlogged.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await applyMigrations(scriptOverPostgres(client), MIGRATIONS_FOLDER, markSent);
    } finally {
      markSent();
      // Ending the session releases the advisory lock too.
      await client.end().catch(() => undefined);
    }
  })();
  const run = { sent, done };
  running.set(url, run);
  const forget = () => void running.delete(url);
  done.then(forget, forget);
  return run;
}
