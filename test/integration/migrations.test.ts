import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as drizzleMigratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as drizzleMigratePglite } from 'drizzle-orm/pglite/migrator';
import { Client } from 'pg';
import { loadConfig } from '../../src/config';
import {
  applyMigrations,
  scriptOverPglite,
  scriptOverPostgres,
} from '../../src/database/apply-migrations';
import { openDatabase } from '../../src/database/open-database';
import { MIGRATIONS_FOLDER, migratePostgres } from '../../src/database/postgres-migrations';
import { createTestDatabase, type TestDatabase } from '../support/postgres';

// The app applies migrations with its own migrator (statements batched into one round trip);
// drizzle's migrator, and drizzle-kit, must find exactly the state they would have left.
const SCHEMA_QUERIES = {
  journal: 'SELECT id, hash, created_at::text FROM drizzle.__drizzle_migrations ORDER BY id',
  columns: `SELECT table_schema, table_name, column_name, ordinal_position, column_default,
      is_nullable, data_type, udt_name, character_maximum_length, numeric_precision,
      is_identity, is_generated, generation_expression
    FROM information_schema.columns
    WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 4`,
  indexes: `SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes
    WHERE schemaname <> 'pg_catalog' ORDER BY 1, 2, 3`,
  constraints: `SELECT n.nspname, c.conrelid::regclass::text AS rel, c.conname,
      pg_get_constraintdef(c.oid) AS def
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`,
  functions: `SELECT n.nspname, p.proname, pg_get_function_identity_arguments(p.oid) AS args,
      CASE WHEN p.prokind = 'f' THEN pg_get_functiondef(p.oid) END AS def
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`,
  triggers: `SELECT tgrelid::regclass::text AS rel, tgname, pg_get_triggerdef(oid) AS def
    FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2`,
  sequences: 'SELECT * FROM pg_sequences ORDER BY schemaname, sequencename',
  extensions: 'SELECT extname, extversion FROM pg_extension ORDER BY 1',
  types: `SELECT t.typname, t.typtype, e.enumlabel FROM pg_type t
      JOIN pg_namespace n ON n.oid = t.typnamespace LEFT JOIN pg_enum e ON e.enumtypid = t.oid
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND t.typtype IN ('e', 'd', 'c')
      AND NOT EXISTS (SELECT 1 FROM pg_class r WHERE r.reltype = t.oid)
    ORDER BY 1, e.enumsortorder`,
};

// A PGlite instance takes seconds to open from WASM; two migrated ones ~30 s on a busy 2-core box.
const PGLITE_TIMEOUT_MS = 120_000;

type Query = (text: string) => Promise<unknown[]>;

async function describeSchema(query: Query): Promise<Record<string, unknown[]>> {
  const described: Record<string, unknown[]> = {};
  for (const [name, text] of Object.entries(SCHEMA_QUERIES)) described[name] = await query(text);
  return described;
}

const postgresQuery =
  (client: Client): Query =>
  async (text) =>
    (await client.query(text)).rows;

/** A copy of the migrations folder whose journal lists only the first `count` migrations. */
function truncatedFolder(count: number): string {
  const folder = mkdtempSync(join(tmpdir(), 'sb-migrations-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const path = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(path, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(path, JSON.stringify(journal));
  return folder;
}

/** Two small migrations, the second of which fails. */
function failingFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'sb-migrations-'));
  writeFileSync(
    join(folder, '0000_probe.sql'),
    'CREATE TABLE probe_a (id int);\n--> statement-breakpoint\nCREATE INDEX probe_a_id ON probe_a (id);',
  );
  writeFileSync(join(folder, '0001_broken.sql'), 'SELECT 1 / 0;');
  const entries = ['0000_probe', '0001_broken'].map((tag, idx) => ({
    idx,
    version: '7',
    when: 1_700_000_000_000 + idx,
    tag,
    breakpoints: true,
  }));
  mkdirSync(join(folder, 'meta'));
  writeFileSync(
    join(folder, 'meta', '_journal.json'),
    JSON.stringify({ version: '7', dialect: 'postgresql', entries }),
  );
  return folder;
}

function config(databaseUrl: string | undefined, dataDir: string) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ...(databaseUrl && {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    }),
  });
}

const logger = { log: () => undefined, error: () => undefined };

describe('migrations on PostgreSQL', () => {
  const databases: TestDatabase[] = [];
  const clients: Client[] = [];
  const folders: string[] = [];

  async function newDatabase(): Promise<{ url: string; client: Client }> {
    const database = await createTestDatabase();
    databases.push(database);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    clients.push(client);
    return { url: database.url, client };
  }

  async function byDrizzle(migrationsFolder = MIGRATIONS_FOLDER) {
    const { url, client } = await newDatabase();
    await drizzleMigratePostgres(drizzlePostgres(client), { migrationsFolder });
    return { url, client };
  }

  async function startApp(url: string): Promise<void> {
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-migrations-data-'));
    folders.push(dataDir);
    const connection = await openDatabase(config(url, dataDir), logger);
    await connection.close();
  }

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
    await Promise.all(databases.map((database) => database.drop()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("leaves a new database with the journal rows and schema drizzle's migrator produces", async () => {
    const reference = await byDrizzle();
    const { url, client } = await newDatabase();
    await startApp(url);

    const expected = await describeSchema(postgresQuery(reference.client));
    expect(expected.journal).toHaveLength(readJournalLength());
    expect(await describeSchema(postgresQuery(client))).toEqual(expected);
  });

  it('finishes a database drizzle migrated part way, and drizzle then finds nothing to apply', async () => {
    const reference = await byDrizzle();
    const partFolder = truncatedFolder(10);
    folders.push(partFolder);
    const { url, client } = await byDrizzle(partFolder);
    await startApp(url);

    const expected = await describeSchema(postgresQuery(reference.client));
    expect(await describeSchema(postgresQuery(client))).toEqual(expected);
    await drizzleMigratePostgres(drizzlePostgres(client), { migrationsFolder: MIGRATIONS_FOLDER });
    expect(await describeSchema(postgresQuery(client))).toEqual(expected);
  });

  it('sends all the migrations of a new database in one round trip, none on a restart', async () => {
    const { url } = await newDatabase();
    const queries = jest.spyOn(Client.prototype, 'query');
    try {
      await startApp(url);
      // The migration lock, the journal's newest row, then every migration at once.
      expect(queries).toHaveBeenCalledTimes(3);
      queries.mockClear();
      await startApp(url);
      expect(queries).toHaveBeenCalledTimes(2);
    } finally {
      queries.mockRestore();
    }
  });

  it('has the SQL on the wire before PostgreSQL answers, and opening the database joins that run', async () => {
    const { url, client } = await newDatabase();
    const run = migratePostgres(url);
    let done = false;
    void run.done.then(() => (done = true));
    // What main waits for before it loads the app: the whole run is sent, none of it answered
    // (an answer needs an I/O turn, which this continuation comes before).
    await run.sent;
    expect(done).toBe(false);
    expect(migratePostgres(url)).toBe(run);

    await startApp(url);
    expect(done).toBe(true);
    const journal = await client.query(
      'SELECT count(*)::int AS rows FROM drizzle.__drizzle_migrations',
    );
    expect(journal.rows).toEqual([{ rows: readJournalLength() }]);
    expect(migratePostgres(url)).not.toBe(run);
    await migratePostgres(url).done;
  });

  it('applies nothing when one migration fails, and leaves the session usable', async () => {
    const { client } = await newDatabase();
    const folder = failingFolder();
    folders.push(folder);

    await expect(applyMigrations(scriptOverPostgres(client), folder)).rejects.toThrow(
      'division by zero',
    );
    expect(await migratedState(postgresQuery(client))).toEqual(NOTHING_APPLIED);
  });
});

describe('migrations on PGlite', () => {
  const folders: string[] = [];
  const clients: PGlite[] = [];
  const pgliteQuery =
    (client: PGlite): Query =>
    async (text) =>
      (await client.query(text)).rows;

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it(
    "leaves a new data dir with the journal rows and schema drizzle's migrator produces",
    async () => {
      const reference = await PGlite.create({ extensions: { btree_gin, pg_trgm } });
      clients.push(reference);
      await drizzleMigratePglite(drizzlePglite(reference), { migrationsFolder: MIGRATIONS_FOLDER });
      const expected = await describeSchema(pgliteQuery(reference));

      const dataDir = mkdtempSync(join(tmpdir(), 'sb-migrations-data-'));
      folders.push(dataDir);
      const appConfig = config(undefined, dataDir);
      const connection = await openDatabase(appConfig, logger);
      await connection.close();
      const migrated = await PGlite.create(appConfig.db.pgliteDir, {
        extensions: { btree_gin, pg_trgm },
      });
      clients.push(migrated);

      expect(expected.journal).toHaveLength(readJournalLength());
      expect(await describeSchema(pgliteQuery(migrated))).toEqual(expected);
    },
    PGLITE_TIMEOUT_MS,
  );

  it(
    'applies nothing when one migration fails, and leaves the session usable',
    async () => {
      const client = await PGlite.create();
      clients.push(client);
      const folder = failingFolder();
      folders.push(folder);

      await expect(applyMigrations(scriptOverPglite(client), folder)).rejects.toThrow(
        'division by zero',
      );
      expect(await migratedState(pgliteQuery(client))).toEqual(NOTHING_APPLIED);
    },
    PGLITE_TIMEOUT_MS,
  );
});

/** After a failed run: the failing folder's first table absent, the journal empty. */
const NOTHING_APPLIED = [{ probe: null, journal: 0 }];

function migratedState(query: Query): Promise<unknown[]> {
  return query(`SELECT to_regclass('probe_a') AS probe,
    (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS journal`);
}

function readJournalLength(): number {
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: unknown[] };
  return journal.entries.length;
}
