// Applying every migration to a new PostgreSQL database: drizzle's migrator (one round trip per
// statement and journal row) against the app's (src/database/apply-migrations.ts: two round
// trips), alternating on new databases, plus drizzle's time per migration.
//
//   npm run bench:migrations -- [--runs N]
//
// Prints only; the startup bench (bench/startup/run.js) is the end-to-end figure.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { drizzle } from 'drizzle-orm/node-postgres';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';
import { applyMigrations, scriptOverPostgres } from '../../src/database/apply-migrations';
import { MIGRATIONS_FOLDER } from '../../src/database/postgres-migrations';
import * as h from '../lib/harness';

interface Timed {
  text: string;
  ms: number;
}

/** A client on a new database whose every query is timed (the round trip as the caller sees it). */
async function timedClient(): Promise<{ client: Client; timed: Timed[] }> {
  const database = await h.createDatabase();
  const client = new Client({ connectionString: database.url });
  await client.connect();
  const timed: Timed[] = [];
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as unknown as { query: typeof query }).query = async (...args) => {
    const started = performance.now();
    const result = await query(...args);
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
    timed.push({ text, ms: performance.now() - started });
    return result;
  };
  return { client, timed };
}

async function roundTripMs(client: Client): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < 50; i += 1) await client.query('SELECT 1');
  return (performance.now() - started) / 50;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

async function main() {
  const runsAt = process.argv.indexOf('--runs');
  const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 5;
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
  const statements = sum(migrations.map((migration) => migration.sql.length));
  const drizzleTotals: number[] = [];
  const appTotals: number[] = [];
  const appQueries: number[] = [];
  const roundTrips: number[] = [];
  const perMigration = migrations.map(() => [] as number[]);
  let drizzleQueries = 0;

  for (let i = 0; i < runs; i += 1) {
    const byDrizzle = await timedClient();
    roundTrips.push(await roundTripMs(byDrizzle.client));
    byDrizzle.timed.length = 0;
    let started = performance.now();
    await drizzleMigrate(drizzle(byDrizzle.client), { migrationsFolder: MIGRATIONS_FOLDER });
    drizzleTotals.push(performance.now() - started);
    drizzleQueries = byDrizzle.timed.length;
    // schema, table, newest row, begin; then each migration's statements and its journal row.
    let at = 4;
    migrations.forEach((migration, index) => {
      const count = migration.sql.length + 1;
      perMigration[index].push(sum(byDrizzle.timed.slice(at, at + count).map((t) => t.ms)));
      at += count;
    });
    await byDrizzle.client.end();

    const byApp = await timedClient();
    started = performance.now();
    await applyMigrations(scriptOverPostgres(byApp.client), MIGRATIONS_FOLDER);
    appTotals.push(performance.now() - started);
    appQueries.push(byApp.timed.length);
    await byApp.client.end();
    await h.dropDatabases();
  }

  const median = (values: number[]) => h.formatMs(h.stats(values).median);
  const range = (values: number[]) => {
    const s = h.stats(values);
    return `${median(values)} ms (${h.formatMs(s.min)}–${h.formatMs(s.max)})`;
  };
  console.log(`${migrations.length} migrations, ${statements} statements; ${runs} runs each`);
  console.log(`SELECT 1 round trip: ${h.stats(roundTrips).median.toFixed(3)} ms (median)`);
  console.log(`drizzle's migrator: ${range(drizzleTotals)}, ${drizzleQueries} queries`);
  console.log(`app's migrator:     ${range(appTotals)}, ${appQueries[0]} queries`);
  console.log('\nmigration                               statements  drizzle ms (median)');
  const journal = JSON.parse(
    readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: Array<{ tag: string }> };
  migrations.forEach((migration, index) => {
    console.log(
      `${journal.entries[index].tag.padEnd(40)}${String(migration.sql.length).padStart(10)}${median(perMigration[index]).padStart(21)}`,
    );
  });
}

h.run(main);
