'use strict';
// Shared by the benchmark scripts: free ports, starting and stopping the built server, throw-away
// PostgreSQL databases and data dirs, statistics, and rewriting one section of docs/benchmarks.md.
// Everything a script creates is tracked so any exit path removes it (cleanup()).

const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
// BENCH_ENTRY: another server entry, e.g. a profiling wrapper or an earlier build for an A/B run.
const DEFAULT_ENTRY = process.env.BENCH_ENTRY || path.join(ROOT, 'dist/bundle/main.js');
const DOC = path.join(ROOT, 'docs/benchmarks.md');
const POSTGRES_ADMIN_URL =
  process.env.POSTGRES_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const POLL_INTERVAL_MS = 10;
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

const children = new Set();
const tempDirs = new Set();
const databases = new Set();
let interrupted = false;

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

/**
 * Spawns the server and resolves with the ms from spawn to the first 200 from /health/ready.
 * `env.PORT` when the caller needs the port beforehand (e.g. for PUBLIC_BASE_URL), else a free one.
 */
async function startServer(env, entry = DEFAULT_ENTRY) {
  if (interrupted) throw new Error('interrupted');
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const output = [];
  const started = performance.now();
  // BENCH_NODE_FLAGS: Node flags for the server (e.g. GC settings), for an A/B run.
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, entry], {
    cwd: ROOT,
    env: serverEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const server = {
    child,
    port,
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

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** p50, p95, p99 and max of latency samples (nearest rank). */
function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] };
}

function formatMs(value) {
  return Math.round(value).toLocaleString('en-US');
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

/** Replaces the section that starts with `heading` (or appends it). */
async function writeSection(heading, m, text) {
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
  const start = doc.search(
    new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*$`, 'm'),
  );
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

/** Removes every child, temp dir and database the script created; call on every exit path. */
function installCleanup() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      interrupted = true;
      cleanup().finally(() => process.exit(130));
    });
  }
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
}

/** The built server on a new PostgreSQL database (secrets generated), and a client on that database. */
async function startOnPostgres(extraEnv = {}) {
  const { Client } = require('pg');
  const database = await createDatabase();
  const server = await startServer({
    DATA_DIR: newDataDir(),
    DATABASE_URL: database.url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...extraEnv,
  });
  const db = new Client({ connectionString: database.url });
  db.on('error', () => undefined); // the database is dropped WITH (FORCE) on every exit path
  await db.connect();
  return { server, database, db };
}

/** One JSON request to the server; throws on a non-2xx answer. */
async function json(port, method, route, body, token) {
  const response = await fetch(`http://127.0.0.1:${port}${route}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) {
    throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  }
  return response.json();
}

/** A private redis-server on a free port (no persistence); stop it with killChild. */
async function startRedis() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const { Redis } = require('ioredis');
  for (let i = 0; i < 200; i += 1) {
    const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return { child, url };
    } catch {
      client.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error('redis-server did not start');
}

/** SIGTERM, SIGKILL after 10 s; resolves once the child exited. */
function killChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Runs a script's main with cleanup on every exit path and a non-zero exit on failure. */
function run(main) {
  installCleanup();
  main()
    .catch((error) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exitCode = 1;
    })
    .finally(cleanup);
}

module.exports = {
  startOnPostgres,
  startRedis,
  killChild,
  json,
  run,
  ROOT,
  DEFAULT_ENTRY,
  DOC,
  POLL_INTERVAL_MS,
  freePort,
  serverEnv,
  startServer,
  stopServer,
  newDataDir,
  removeDataDir,
  withAdmin,
  createDatabase,
  dropDatabases,
  stats,
  percentiles,
  formatMs,
  machine,
  describeMachine,
  writeSection,
  cleanup,
  installCleanup,
  randomBytes,
};
