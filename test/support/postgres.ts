import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  name: string;
  /** Drops the database this test created (and only that one), ending its connections. */
  drop(): Promise<void>;
}

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Settings of a test database (ALTER DATABASE … SET), for every connection the app opens. Only
 * what a test may change without changing what it tests: `synchronousCommit: false` spares each
 * commit its WAL flush (~10 ms on this box), which only matters if the server crashes.
 */
export interface TestDatabaseSettings {
  synchronousCommit?: boolean;
}

/** A fresh, empty PostgreSQL database for one test file. */
export async function createTestDatabase(
  settings: TestDatabaseSettings = {},
): Promise<TestDatabase> {
  const name = `sb_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(async (client) => {
    await client.query(`CREATE DATABASE ${name}`);
    if (settings.synchronousCommit === false) {
      await client.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    }
  });
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
