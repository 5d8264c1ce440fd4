import { Logger, type LoggerService } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { Database, rowsOf } from '../../src/database';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

// A PostgreSQL connection lost while a transaction holds it between statements (a server
// restart, a failover, an administrator's pg_terminate_backend): pg emits 'error' on that
// client, which the pool stops listening to while it is checked out. With no listener of ours
// it was an 'Unhandled error' that ended the process, every live call with it (issue #28).

describe('a PostgreSQL connection lost in the middle of a transaction', () => {
  let t: TestApp;
  let database: Database;
  let admin: Client;
  /** What the app's Nest loggers report as errors (the database logs through one). */
  const errors: string[] = [];
  const capture: LoggerService = {
    log: () => undefined,
    warn: () => undefined,
    error: (message: unknown) => void errors.push(String(message)),
  };

  beforeAll(async () => {
    t = await startTestApp();
    Logger.overrideLogger(capture);
    database = t.app.get(Database);
    admin = new Client({ connectionString: t.database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
    Logger.overrideLogger(false);
  });

  const backendPid = async () =>
    rowsOf<{ pid: number }>(await database.db.execute(sql`SELECT pg_backend_pid() AS pid`))[0].pid;

  it('fails that transaction, is logged without its message, and the next query runs', async () => {
    let terminated: number | undefined;
    const outcome = database.transaction(async () => {
      const pid = await backendPid();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      terminated = pid;
      // Between statements, as a transaction waiting on anything else would be.
      await waitFor(() => errors.some((line) => line.includes('PostgreSQL connection')), {
        what: 'the lost connection to be logged',
      });
      await database.db.execute(sql`SELECT 1`);
    });

    await expect(outcome).rejects.toThrow();
    expect(terminated).toBeDefined();
    expect(errors).toContainEqual(
      expect.stringMatching(/^PostgreSQL connection error: \{"error":"error","code":"57P01"/),
    );
    expect(errors.join('\n')).not.toContain('administrator command');
    expect(await backendPid()).not.toBe(terminated);
  });
});
