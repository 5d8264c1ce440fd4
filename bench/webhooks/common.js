'use strict';
// Shared by the webhook benchmarks (run.js, fairness.js): a private redis-server, HTTPS receivers,
// Switchboard's producer (the built app with PROCESS_ROLE=api, in the benchmark's process) and
// its worker (dist/bundle/worker.js, or another build's, as a child process).

const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const https = require('node:https');
const path = require('node:path');
const h = require('../lib/harness');

const TLS_DIR = path.join(h.ROOT, 'test/fixtures/tls');
const CA = path.join(TLS_DIR, 'ca.crt');
const DEFAULT_WORKER = path.join(h.ROOT, 'dist/bundle/worker.js');

/**
 * An HTTPS receiver: answers 204 (or, with `hang`, never: the sender's attempts time out), and
 * keeps the first arrival time of each webhook-id per path.
 */
function startReceiver({ hang = false } = {}) {
  const arrivals = new Map();
  const server = https.createServer(
    {
      key: fs.readFileSync(path.join(TLS_DIR, 'server.key')),
      cert: fs.readFileSync(path.join(TLS_DIR, 'server.crt')),
      keepAliveTimeout: 60_000,
    },
    (req, res) => {
      req.resume();
      req.on('end', () => {
        const now = Date.now();
        const seen = arrivals.get(req.url) ?? new Map();
        arrivals.set(req.url, seen);
        const id = req.headers['webhook-id'];
        if (!seen.has(id)) seen.set(id, now);
        if (!hang) res.writeHead(204).end();
      });
    },
  );
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: (p) => `https://127.0.0.1:${server.address().port}${p}`,
        seen: (p) => arrivals.get(p) ?? new Map(),
        forget: (p) => arrivals.delete(p),
        close: () => {
          // Its keep-alive sockets would keep the process alive after the report.
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

async function waitUntil(probe, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The environment both Switchboard processes share: a new database, the given Redis. */
async function switchboardEnv(redisUrl) {
  const database = await h.createDatabase();
  return {
    database,
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `bench-${randomBytes(3).toString('hex')}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  };
}

/**
 * The producer: the built app serving HTTP in this process (enqueue only). `raise(organizationId,
 * callId)` raises a call.completed event; call it inside `db.transaction`.
 */
async function startProducer(env) {
  const entry = path.join(h.ROOT, 'dist/src/create-app.js');
  if (!fs.existsSync(entry) || !fs.existsSync(DEFAULT_WORKER)) {
    throw new Error('Build first: npm run build');
  }
  const { loadConfig } = require(path.join(h.ROOT, 'dist/src/config'));
  const { createApp } = require(entry);
  const { Database } = require(path.join(h.ROOT, 'dist/src/database'));
  const { EventsService } = require(path.join(h.ROOT, 'dist/src/modules/events/events.service'));
  const app = await createApp(loadConfig({ ...env, PROCESS_ROLE: 'api' }, 'api'), {
    logger: false,
  });
  const port = await h.freePort();
  await app.listen(port, '127.0.0.1');
  const events = app.get(EventsService);
  return {
    app,
    db: app.get(Database),
    raise: (organizationId, callId) =>
      events.raise(organizationId, {
        type: 'call.completed',
        callId,
        data: { status: 'completed', duration_seconds: 42, recording_expected: true },
      }),
    /** A new organization with one webhook to `url`; its id and admin token. */
    async organizationWithWebhook(url, secret) {
      const session = await h.json(port, 'POST', '/api/auth/register', {
        organizationName: 'Bench',
        name: 'Bench Admin',
        email: `bench-${randomBytes(4).toString('hex')}@example.com`,
        password: 'correct horse battery',
      });
      const token = session.data.accessToken;
      await h.json(
        port,
        'POST',
        '/api/webhooks',
        { name: 'bench', url, events: ['call.completed'], ...(secret ? { secret } : {}) },
        token,
      );
      return { organizationId: session.data.user.organizationId, token };
    },
  };
}

/** Starts a worker as `npm run start:worker` does; `children` collects it for the cleanup. */
function startWorker(env, children, workerPath = DEFAULT_WORKER) {
  const worker = spawn(process.execPath, ['--max-semi-space-size=64', workerPath], {
    cwd: h.ROOT,
    env: h.serverEnv({ ...env, PROCESS_ROLE: 'worker', NODE_EXTRA_CA_CERTS: CA }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(worker);
  return worker;
}

/** The value at quantile q (nearest rank). */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

module.exports = {
  CA,
  startReceiver,
  startRedis: h.startRedis,
  waitUntil,
  killChild: h.killChild,
  switchboardEnv,
  startProducer,
  startWorker,
  quantile,
};
