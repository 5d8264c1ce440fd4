#!/usr/bin/env node
'use strict';
// The longest GET /api/call/batch-details?search=… under hostile regular expressions, on
// PostgreSQL and on embedded PGlite: each pattern alone, then six requests at once, on a batch of
// 2,000 contacts (issue #18: `((a+)+)+b` took 18.4 s alone and 43 s six at once). A benign
// search runs first and last as a control. The target is every request within the statement
// timeout (DB_STATEMENT_TIMEOUT_MS, 5 s by default), answered 200, 400 or 408, never 500.
//
//   npm run build && node bench/search-hostile/run.js [--drivers postgres,pglite] [--cap 30] [--write]
//
// --cap: seconds after which a request counts as "> cap" and the server is stopped (PGlite runs
// queries on the event loop, so a runaway one cannot be cancelled); --write: replace the
// "## Hostile search" section of docs/benchmarks.md.

const { PGlite } = require('@electric-sql/pglite');
const path = require('node:path');
const h = require('../lib/harness');

const CONTACTS = 2_000;
const CONCURRENT = 6;
const TIMEOUT_MS = 5_000;
const CONTROL = 'Contact 1';
const PATTERNS = [
  '((a+)+)+b',
  '((.*)*)*x',
  '(.*a){20}',
  '(.{0,100}){0,100}x',
  '(.*)(.*)(.*)(.*)(.*)\\5\\4\\3\\2\\1x',
  // Accepted by the pattern rules, and among the costliest such per record.
  `${'a?'.repeat(20)}${'a'.repeat(20)}`,
];

function parseArgs(argv) {
  const options = { drivers: ['postgres', 'pglite'], cap: 30, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--drivers') options.drivers = argv[++i].split(',');
    else if (argv[i] === '--cap') options.cap = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

/** One batch of CONTACTS records, never indexed for search (as right after an import). */
async function seed(query, organizationId, userId) {
  const batchId = h.randomBytes(12).toString('hex');
  await query(
    `INSERT INTO batches (id, organization_id, user_id, batch_name, calling_numbers, total_calls)
     VALUES ($1, $2, $3, 'Hostile search', ARRAY['000000000000000000000000'], $4)`,
    [batchId, organizationId, userId, CONTACTS],
  );
  await query(
    `INSERT INTO call_records (id, organization_id, batch_id, phone_number, contact, created_at)
     SELECT substr(md5($1 || i), 1, 24), $2, $1, '+1415' || (5000000 + i)::text,
            jsonb_build_object('name', 'Contact ' || i, 'account_id', 'A-' || i,
                               'note', repeat('a', 28)),
            now() - ($3 - i) * interval '1 millisecond'
     FROM generate_series(1, $3) AS i`,
    [batchId, organizationId, CONTACTS],
  );
  return batchId;
}

async function register(port) {
  const { data } = await h.json(port, 'POST', '/api/auth/register', {
    organizationName: 'Bench',
    name: 'Bench',
    email: `bench-${h.randomBytes(4).toString('hex')}@example.com`,
    password: 'a long bench password',
  });
  return {
    token: data.accessToken,
    userId: data.user._id,
    organizationId: data.user.organizationId,
  };
}

/** Starts the server with a seeded batch; returns what the requests need. */
async function prepare(driver) {
  const env = { DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) };
  if (driver === 'postgres') {
    const { server, db } = await h.startOnPostgres(env);
    const admin = await register(server.port);
    const batchId = await seed(
      (text, values) => db.query(text, values),
      admin.organizationId,
      admin.userId,
    );
    return { server, admin, batchId, db, restart: null };
  }
  const dataDir = h.newDataDir();
  const start = () => h.startServer({ ...env, DATA_DIR: dataDir });
  let server = await start();
  const admin = await register(server.port);
  await h.stopServer(server);
  // One process per data dir: seed between two runs of the server.
  const pglite = await PGlite.create(path.join(dataDir, 'pglite'));
  const batchId = await seed(
    (text, values) => pglite.query(text, values),
    admin.organizationId,
    admin.userId,
  );
  await pglite.close();
  server = await start();
  return { server, admin, batchId, db: null, restart: start };
}

async function search(context, pattern, capMs) {
  const started = performance.now();
  const route = `/api/call/batch-details/${context.batchId}?search=${encodeURIComponent(pattern)}`;
  try {
    const response = await fetch(`http://127.0.0.1:${context.server.port}${route}`, {
      headers: { authorization: `Bearer ${context.admin.token}` },
      signal: AbortSignal.timeout(capMs),
    });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 'aborted', ms: performance.now() - started };
  }
}

/** After a request ran past the cap: stop what it left running before measuring the next. */
async function recover(context) {
  if (context.db) {
    await context.db.query(
      `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return;
  }
  context.server.child.kill('SIGKILL');
  await context.server.exited;
  context.server = await context.restart();
}

async function measureDriver(driver, capMs) {
  const context = await prepare(driver);
  const rows = [];
  const record = async (label, pattern, count) => {
    const results = await Promise.all(
      Array.from({ length: count }, () => search(context, pattern, capMs)),
    );
    const longest = Math.max(...results.map((r) => r.ms));
    const statuses = [...new Set(results.map((r) => r.status))].join(', ');
    rows.push({ driver, label, pattern, count, longest, statuses });
    console.log(`${driver} ${label} ${pattern} x${count}: ${h.formatMs(longest)} [${statuses}]`);
    if (results.some((r) => r.status === 'aborted')) await recover(context);
  };
  await record('control', CONTROL, 1);
  for (const pattern of PATTERNS) await record('alone', pattern, 1);
  await record('six at once', PATTERNS[0], CONCURRENT);
  await record('six at once', PATTERNS[1], CONCURRENT);
  await record('control', CONTROL, 1);
  await h.stopServer(context.server).catch(() => context.server.child.kill('SIGKILL'));
  if (context.db) await context.db.end();
  return rows;
}

function markdown(rows, capMs, m) {
  const cell = (row) =>
    row.statuses.includes('aborted') ? `> ${capMs / 1000} s (aborted)` : h.formatMs(row.longest);
  const lines = [
    '## Hostile search',
    '',
    `\`node bench/search-hostile/run.js\`: the longest of ${CONCURRENT} concurrent or one lone ` +
      `\`GET /api/call/batch-details/{id}?search=…\` on a batch of ${CONTACTS.toLocaleString('en-US')} ` +
      `unindexed contacts, statement timeout ${TIMEOUT_MS / 1000} s. ${h.describeMachine(m)}.`,
    '',
    '| Driver | Requests | Pattern | Longest | Statuses |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.driver} | ${row.label} | \`${row.pattern.replace(/\|/g, '\\|')}\` | ${cell(row)} | ${row.statuses} |`,
    ),
  ];
  return lines.join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const capMs = options.cap * 1000;
  const rows = [];
  for (const driver of options.drivers) rows.push(...(await measureDriver(driver, capMs)));
  const m = await h.machine();
  const text = markdown(rows, capMs, m);
  console.log(`\n${text}`);
  if (options.write) await h.writeSection('## Hostile search', m, text);
}

h.run(main);
