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

const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const DEFAULT_ENTRY = path.join(ROOT, 'dist/bundle/main.js');
let ENTRY = DEFAULT_ENTRY; // set from --entry before the first start
const DOC = path.join(ROOT, 'docs/benchmarks.md');
const POSTGRES_ADMIN_URL =
  process.env.POSTGRES_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const POLL_INTERVAL_MS = 10;
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

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

// Everything the script creates, so that any exit path can remove it.
const children = new Set();
const tempDirs = new Set();
const databases = new Set();

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

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Only what the case sets: a DATABASE_URL or NODE_OPTIONS in the caller's shell must not leak. */
function serverEnv(extra) {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...extra };
}

/** One GET /health/ready; resolves to the status code, or 0 when nothing answers yet. */
function probeReady(port) {
  return new Promise((resolve) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: '/health/ready', agent: false, timeout: 2_000 },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
  });
}

/** Spawns the server and resolves with the ms from spawn to the first 200 from /health/ready. */
async function startServer(env) {
  if (interrupted) throw new Error('interrupted');
  const port = await freePort();
  const output = [];
  const started = performance.now();
  const child = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env: serverEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const server = {
    child,
    exit: null,
    exited: new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        children.delete(child);
        server.exit = { code, signal };
        resolve(server.exit);
      }),
    ),
    output: () => Buffer.concat(output).toString(),
  };
  const deadline = started + READY_TIMEOUT_MS;
  for (;;) {
    const status = await probeReady(port);
    if (status === 200) {
      server.readyMs = performance.now() - started;
      return server;
    }
    if (server.exit) {
      throw new Error(
        `server exited (${JSON.stringify(server.exit)}) before ready:\n${server.output()}`,
      );
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`not ready after ${READY_TIMEOUT_MS} ms:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/** SIGTERM, then SIGKILL after the bound; a restart must follow a clean stop. */
async function stopServer(server) {
  if (server.exit) return server.exit;
  server.child.kill('SIGTERM');
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS);
  });
  const result = await Promise.race([server.exited, timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') {
    server.child.kill('SIGKILL');
    await server.exited;
    throw new Error(
      `server did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM:\n${server.output()}`,
    );
  }
  // The server drains and exits 0 on SIGTERM; anything else would taint the restart measured next.
  if (result.code !== 0) {
    throw new Error(`server stopped with ${JSON.stringify(result)}:\n${server.output()}`);
  }
  return result;
}

async function measure(env) {
  const server = await startServer(env);
  await stopServer(server);
  return server.readyMs;
}

function newDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-'));
  tempDirs.add(dir);
  return dir;
}

function removeDataDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

async function withAdmin(work) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createDatabase() {
  const name = `sb_bench_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  databases.add(name);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function dropDatabases() {
  if (databases.size === 0) return;
  await withAdmin(async (client) => {
    for (const name of [...databases]) {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      databases.delete(name);
    }
  });
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

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

function formatMs(value) {
  return Math.round(value).toLocaleString('en-US');
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

async function machine() {
  let postgres = 'unknown';
  try {
    postgres = await withAdmin(async (client) => {
      const { rows } = await client.query('SHOW server_version');
      return rows[0].server_version;
    });
  } catch {
    // reported as unknown
  }
  const cpus = os.cpus();
  return {
    date: new Date().toISOString().slice(0, 10),
    cores: os.availableParallelism ? os.availableParallelism() : cpus.length,
    cpu: cpus[0] ? cpus[0].model.trim() : 'unknown CPU',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    postgres,
  };
}

function describeMachine(m) {
  return `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB RAM, Node ${m.node}, PostgreSQL ${m.postgres}`;
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

/** Formats with the repository's Prettier settings when Prettier is installed (a dev dependency). */
async function formatMarkdown(text) {
  try {
    const prettier = require('prettier');
    const config = (await prettier.resolveConfig(DOC)) || {};
    return await prettier.format(text, { ...config, parser: 'markdown' });
  } catch {
    return text;
  }
}

async function writeDoc(m, text) {
  let doc;
  if (fs.existsSync(DOC)) {
    doc = fs.readFileSync(DOC, 'utf8');
  } else {
    doc = [
      '# Benchmarks',
      '',
      'The scripts under `bench/` produce these figures. Each section says when, on which machine',
      'and with which command it was last measured.',
      '',
      `First written ${m.date} on ${describeMachine(m)}.`,
      '',
    ].join('\n');
  }
  const start = doc.search(/^## Startup[ \t]*$/m);
  if (start === -1) {
    doc = `${doc.trimEnd()}\n\n${text}`;
  } else {
    const rest = doc.slice(start + 1);
    const next = rest.search(/^## /m);
    const end = next === -1 ? doc.length : start + 1 + next;
    doc = `${doc.slice(0, start)}${text}${end < doc.length ? `\n${doc.slice(end)}` : ''}`;
  }
  fs.mkdirSync(path.dirname(DOC), { recursive: true });
  fs.writeFileSync(DOC, await formatMarkdown(doc));
}

async function cleanup() {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
  await dropDatabases().catch((error) => {
    console.error(`could not drop ${[...databases].join(', ')}: ${error.message}`);
  });
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
    await writeDoc(m, text);
    console.error(`wrote ${path.relative(ROOT, DOC)}`);
  }
  const missed = results.filter((r) => !r.pass);
  if (options.check && missed.length > 0) {
    console.error(`missed: ${missed.map((r) => r.label).join('; ')}`);
    process.exitCode = 1;
  }
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    interrupted = true;
    cleanup().finally(() => process.exit(130));
  });
}
// Last resort: no server outlives the script, whatever path ends it.
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

main()
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  })
  .finally(cleanup);
