#!/usr/bin/env node
'use strict';
// Start-to-ready of the built server (dist/bundle/main.js): the time from spawn until the first 200
// from GET /health/ready, on embedded defaults (first start, restart) and on PostgreSQL.
//
//   npm run build && node bench/startup/run.js [--runs N] [--warmup N] [--write] [--check]
//
// --runs: measured runs per case (default 5); --warmup: discarded runs first (default 1);
// --write: replace the "## Startup" section of docs/benchmarks.md; --check: exit 1 when a median
// misses its target; --entry FILE: measure another build of the server (e.g. a bundle).
// POSTGRES_ADMIN_URL overrides postgres://postgres@127.0.0.1:5432/postgres, where the script
// creates a sb_bench_<random> database per run and drops it at the end.

const os = require('node:os');
const path = require('node:path');
const fs = require('node:fs');
const {
  DEFAULT_ENTRY,
  ROOT,
  DOC,
  POLL_INTERVAL_MS,
  startServer,
  stopServer,
  newDataDir,
  removeDataDir,
  createDatabase,
  dropDatabases,
  stats,
  formatMs,
  machine,
  describeMachine,
  writeSection,
  run,
  randomBytes,
} = require('../lib/harness');

let ENTRY = DEFAULT_ENTRY; // set from --entry before the first start

const CASES = [
  { id: 'embedded-first', label: 'Embedded (PGlite), first start on a new DATA_DIR', target: 8000 },
  {
    id: 'embedded-restart',
    label: 'Embedded (PGlite), restart on an existing DATA_DIR',
    target: 1500,
  },
  { id: 'postgres-first', label: 'PostgreSQL, first start (runs migrations)', target: 1000 },
  {
    id: 'postgres-restart',
    label: 'PostgreSQL, restart (migrations already applied)',
    target: 1000,
  },
];

function parseArgs(argv) {
  const options = { runs: 5, warmup: 1, write: false, check: false, entry: DEFAULT_ENTRY };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      const number = Number(argv[++i]);
      if (!Number.isInteger(number) || number < 0) throw new Error(`${arg} needs a whole number`);
      return number;
    };
    if (arg === '--runs') options.runs = Math.max(1, value());
    else if (arg === '--warmup') options.warmup = value();
    else if (arg === '--entry') options.entry = path.resolve(argv[++i] || '');
    else if (arg === '--write') options.write = true;
    else if (arg === '--check') options.check = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(
        'usage: node bench/startup/run.js [--runs N] [--warmup N] [--entry FILE] [--write] [--check]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

async function measure(env) {
  const server = await startServer(env, ENTRY);
  await stopServer(server);
  return server.readyMs;
}

/** One embedded first start and one restart on the same DATA_DIR. */
async function embeddedPair() {
  const dataDir = newDataDir();
  try {
    const first = await measure({ DATA_DIR: dataDir });
    const restart = await measure({ DATA_DIR: dataDir });
    return { first, restart };
  } finally {
    removeDataDir(dataDir);
  }
}

/** One PostgreSQL first start (empty database, migrations run) and one restart. */
async function postgresPair() {
  const dataDir = newDataDir(); // never used for data in this mode; keeps ./.data untouched
  const database = await createDatabase();
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  try {
    const first = await measure(env);
    const restart = await measure(env);
    return { first, restart };
  } finally {
    removeDataDir(dataDir);
  }
}

function table(results) {
  const lines = [
    '| case | runs | median ms | min ms | max ms | target ms | result |',
    '|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const { label, target, values, median, min, max, pass } of results) {
    lines.push(
      `| ${label} | ${values.length} | ${formatMs(median)} | ${formatMs(min)} | ${formatMs(max)} | ` +
        `≤ ${formatMs(target)} | ${pass ? 'pass' : '**fail**'} |`,
    );
  }
  return lines.join('\n');
}

function entryArg(options) {
  return options.entry === DEFAULT_ENTRY ? '' : ` --entry ${path.relative(ROOT, options.entry)}`;
}

function section(m, options, results) {
  return [
    '## Startup',
    '',
    `Measured ${m.date} on ${describeMachine(m)}, with ` +
      `\`npm run build && node bench/startup/run.js --runs ${options.runs}${entryArg(options)} --write\` ` +
      `(1-minute load average before the runs: ${m.loadBefore.toFixed(2)}).`,
    '',
    `Start-to-ready: from spawning \`node ${path.relative(ROOT, options.entry)}\` until the first 200 from`,
    `\`GET /health/ready\`, polled every ${POLL_INTERVAL_MS} ms. Each run uses a new DATA_DIR (embedded) or a`,
    'new database (PostgreSQL); the restart follows a clean SIGTERM stop of the first start on the',
    `same DATA_DIR or database. ${options.warmup} warm-up run(s) of each pair are discarded. The result`,
    'compares the median with the target from issue 2.',
    '',
    table(results),
    '',
  ].join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  ENTRY = options.entry;
  if (!fs.existsSync(ENTRY)) {
    throw new Error(`${ENTRY} is missing: run \`npm run build\` first.`);
  }
  // The machine may be shared: the load before the runs helps judge the figures.
  const loadBefore = os.loadavg()[0];
  const samples = Object.fromEntries(CASES.map((c) => [c.id, []]));
  const total = options.warmup + options.runs;
  for (let run = 0; run < total; run += 1) {
    const warm = run < options.warmup;
    const tag = warm
      ? `warm-up ${run + 1}/${options.warmup}`
      : `run ${run - options.warmup + 1}/${options.runs}`;
    const embedded = await embeddedPair();
    const postgres = await postgresPair();
    await dropDatabases();
    process.stderr.write(
      `${tag}: embedded first ${formatMs(embedded.first)} ms, restart ${formatMs(embedded.restart)} ms; ` +
        `postgres first ${formatMs(postgres.first)} ms, restart ${formatMs(postgres.restart)} ms\n`,
    );
    if (warm) continue;
    samples['embedded-first'].push(embedded.first);
    samples['embedded-restart'].push(embedded.restart);
    samples['postgres-first'].push(postgres.first);
    samples['postgres-restart'].push(postgres.restart);
  }
  const results = CASES.map((c) => {
    const s = stats(samples[c.id]);
    return { ...c, values: samples[c.id], ...s, pass: s.median <= c.target };
  });
  const m = { ...(await machine()), loadBefore };
  const text = section(m, options, results);
  console.log(text);
  if (options.write) {
    await writeSection('## Startup', m, text);
    console.error(`wrote ${path.relative(ROOT, DOC)}`);
  }
  const missed = results.filter((r) => !r.pass);
  if (options.check && missed.length > 0) {
    console.error(`missed: ${missed.map((r) => r.label).join('; ')}`);
    process.exitCode = 1;
  }
}

run(main);
