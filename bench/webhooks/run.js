#!/usr/bin/env node
'use strict';
// Sustained signed webhook deliveries per second to a local HTTPS receiver, every attempt
// logged, beside a bare floor measured in the same run: a plain BullMQ worker doing the same
// signed POST through a keep-alive agent with batched log INSERTs (floor-worker.js). The two
// drain in alternating rounds (the floor alone swings by a fifth from run to run on this box),
// and the report compares their medians, with the CPU each process spent per delivery. Then the
// latency from commit to first attempt at a steady event rate. Self-contained: its own
// redis-server (no persistence), a throw-away PostgreSQL database, the receiver in this process,
// Switchboard's producer (PROCESS_ROLE=api, built app) here and its worker (dist/bundle/worker.js)
// as a child process. Targets (issue 5): ≥ 1,200 deliveries/s, ≥ 0.6 × floor, p99 commit → first
// attempt < 1 s at 500 events/s.
//
//   npm run build && node bench/webhooks/run.js [--events 20000] [--rounds 3] [--rate 500] [--seconds 10] [--write]

const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Queue } = require('bullmq');
const { Client } = require('pg');
const h = require('../lib/harness');
const {
  CA,
  killChild,
  startProducer,
  startReceiver,
  startRedis,
  startWorker,
  switchboardEnv,
  waitUntil,
} = require('./common');
const TARGET_RATE = 1_200;
const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 1_000;
const EVENTS_PER_TRANSACTION = 50;
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

function parseArgs(argv) {
  const options = { events: 20_000, rounds: 3, rate: 500, seconds: 10, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--events') options.events = Number(argv[++i]);
    else if (argv[i] === '--rounds') options.rounds = Number(argv[++i]);
    else if (argv[i] === '--rate') options.rate = Number(argv[++i]);
    else if (argv[i] === '--seconds') options.seconds = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

/** Deliveries per second between the first and the last arrival of `count` ids. */
function rateOf(seen, count) {
  const times = [...seen.values()].sort((a, b) => a - b);
  if (times.length < count) throw new Error(`only ${times.length} of ${count} arrived`);
  return ((count - 1) * 1000) / (times[count - 1] - times[0]);
}

// --- CPU accounting (Linux /proc; absent elsewhere, then reported as n/a) -------------------
const TICK_MS = 10; // USER_HZ is 100 on Linux

function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return NaN;
  }
}

/** CPU ms of every PostgreSQL server process (backends, WAL writer, autovacuum), by pid. */
function postgresCpuMs() {
  const byPid = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') {
        byPid.set(entry, cpuMsOf(entry));
      }
    } catch {
      // the process ended between the listing and the read
    }
  }
  return byPid;
}

/** CPU ms per process group; `worker` is the delivering process, `receiver` this one. */
function cpuSnapshot(workerPid, redisPid) {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  return {
    worker: cpuMsOf(workerPid),
    postgres: postgresCpuMs(),
    redis: cpuMsOf(redisPid),
    receiver: cpuMsOf(process.pid),
  };
}

/**
 * CPU ms of the PostgreSQL processes between two snapshots: those alive at the end, counted
 * from the start or from their birth (a backend that exits in between is missed, not negative).
 */
function postgresDelta(before, after) {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** µs of CPU per delivery for each group between two snapshots. */
function cpuPerDelivery(before, after, count) {
  if (!before || !after) return undefined;
  const result = {};
  for (const key of Object.keys(before)) {
    const ms =
      key === 'postgres' ? postgresDelta(before[key], after[key]) : after[key] - before[key];
    result[key] = (ms * 1000) / count;
  }
  result.total = Object.values(result).reduce((sum, value) => sum + value, 0);
  return result;
}

/**
 * Starts a delivering process, waits until `count` ids reached `route`, stops it. Returns the
 * drain rate and the CPU spent per delivery (the worker's own start-up is outside the window:
 * it is measured from its first delivery).
 */
async function drain({ start, route, count, receiver, redisPid }) {
  receiver.forget(route);
  const child = start();
  await waitUntil(() => receiver.seen(route).size > 0, 120_000, `first delivery to ${route}`);
  const before = cpuSnapshot(child.pid, redisPid);
  const firstSeen = receiver.seen(route).size;
  await waitUntil(() => receiver.seen(route).size >= count, 600_000, `deliveries to ${route}`);
  const after = cpuSnapshot(child.pid, redisPid);
  const rate = rateOf(receiver.seen(route), count);
  await killChild(child);
  return { rate, cpu: cpuPerDelivery(before, after, count - firstSeen) };
}

const median = (values) => h.stats(values).median;

function medianCpu(samples) {
  if (samples.some((sample) => !sample)) return undefined;
  const result = {};
  for (const key of Object.keys(samples[0])) result[key] = median(samples.map((s) => s[key]));
  return result;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const redis = await startRedis();
  const children = [redis.child];
  let app;
  let receiver;
  try {
    const { database, env } = await switchboardEnv(redis.url);
    receiver = await startReceiver();

    // --- Switchboard: the producer in this process (enqueue only), the worker a child.
    const producer = await startProducer(env);
    app = producer.app;
    const { organizationId } = await producer.organizationWithWebhook(
      receiver.url('/switchboard'),
      SECRET,
    );
    const db = producer.db;
    const raise = (callId) => producer.raise(organizationId, callId);
    const startSwitchboard = () => startWorker(env, children);

    // --- The floor: same receiver, same signed POST, plain BullMQ worker, batched log rows.
    const pg = new Client({ connectionString: database.url });
    await pg.connect();
    await pg.query(`CREATE TABLE floor_delivery_log (id bigserial PRIMARY KEY, job_id text,
      endpoint text, status_code int, attempt int, latency_ms int, created_at timestamptz DEFAULT now())`);
    const floorQueue = `floor-${randomBytes(3).toString('hex')}`;
    const queue = new Queue(floorQueue, {
      connection: { url: redis.url },
      prefix: env.REDIS_PREFIX,
    });
    const body = JSON.stringify({
      type: 'call.completed',
      timestamp: new Date().toISOString(),
      data: {
        call_id: 'c',
        sequence: 1,
        occurred_at: new Date().toISOString(),
        status: 'completed',
        duration_seconds: 42,
        recording_expected: true,
      },
    });
    const startFloor = () => {
      const floor = spawn(process.execPath, [path.join(__dirname, 'floor-worker.js')], {
        cwd: h.ROOT,
        env: h.serverEnv({
          REDIS_URL: redis.url,
          REDIS_PREFIX: env.REDIS_PREFIX,
          DATABASE_URL: database.url,
          FLOOR_QUEUE: floorQueue,
          SECRET,
          CONCURRENCY: '100',
          NODE_EXTRA_CA_CERTS: CA,
        }),
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      children.push(floor);
      return floor;
    };

    // Throughput: per round, N deliveries queued with no worker running, then drained.
    const n = options.events;
    const rounds = [];
    let attemptsLogged = 0;
    for (let round = 0; round < options.rounds; round += 1) {
      for (let i = 0; i < n; i += EVENTS_PER_TRANSACTION) {
        await db.transaction(async () => {
          for (let j = i; j < Math.min(n, i + EVENTS_PER_TRANSACTION); j += 1) {
            await raise(`t-${round}-${j}`);
          }
        });
      }
      const switchboard = await drain({
        start: startSwitchboard,
        route: '/switchboard',
        count: n,
        receiver,
        redisPid: redis.child.pid,
      });
      attemptsLogged += n;
      await waitUntil(
        async () =>
          (await pg.query('SELECT count(*)::int AS n FROM webhook_delivery_attempts')).rows[0].n >=
          attemptsLogged,
        30_000,
        'the attempt log',
      );

      for (let i = 0; i < n; i += 1000) {
        await queue.addBulk(
          Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({
            name: 'deliver',
            data: { id: `msg_floor_${round}_${i + k}`, url: receiver.url('/floor'), body },
            opts: { removeOnComplete: true },
          })),
        );
      }
      const floor = await drain({
        start: startFloor,
        route: '/floor',
        count: n,
        receiver,
        redisPid: redis.child.pid,
      });
      rounds.push({ switchboard, floor, ratio: switchboard.rate / floor.rate });
      const cpuText = (cpu) =>
        cpu
          ? ` (${Math.round(cpu.worker)}/${Math.round(cpu.postgres)}/${Math.round(cpu.redis)}/${Math.round(cpu.receiver)} µs)`
          : '';
      console.log(
        `round ${round + 1}: Switchboard ${Math.round(switchboard.rate)}/s${cpuText(switchboard.cpu)}, floor ${Math.round(floor.rate)}/s${cpuText(floor.cpu)}, ratio ${(switchboard.rate / floor.rate).toFixed(2)} (CPU: worker/PostgreSQL/Redis/receiver per delivery)`,
      );
    }
    await queue.close();
    await pg.end();

    // Latency: events at a steady rate, each in its own transaction; commit → first arrival.
    receiver.forget('/switchboard');
    startSwitchboard();
    // Measured from a running worker: one event first, delivered once the worker is up.
    const warmUp = await db.transaction(() => raise('l-warm-up'));
    await waitUntil(
      () => receiver.seen('/switchboard').has(warmUp.id),
      120_000,
      'the warm-up delivery',
    );
    const commits = new Map();
    const total = options.rate * options.seconds;
    const started = Date.now();
    const pending = [];
    for (let i = 0; i < total; i += 1) {
      const due = started + (i * 1000) / options.rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(
        db.transaction(async () => {
          let eventId = '';
          // Registered first, so it runs first after the commit: the commit time.
          db.afterCommit(() => void commits.set(eventId, Date.now()));
          eventId = (await raise(`l-${i}`)).id;
        }),
      );
    }
    await Promise.all(pending);
    const latencyPath = receiver.seen('/switchboard');
    await waitUntil(() => latencyPath.size >= total + 1, 120_000, 'latency deliveries');
    const latencies = [...commits].map(([id, at]) => latencyPath.get(id) - at);
    const latency = h.percentiles(latencies);

    const switchboardRate = median(rounds.map((r) => r.switchboard.rate));
    const floorRate = median(rounds.map((r) => r.floor.rate));
    const ratio = switchboardRate / floorRate;
    const switchboardCpu = medianCpu(rounds.map((r) => r.switchboard.cpu));
    const floorCpu = medianCpu(rounds.map((r) => r.floor.cpu));
    const m = await h.machine();
    const verdict = (ok) => (ok ? 'met' : '**not met**');
    const range = (values) =>
      `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
    const cpuRow = (label, cpu) =>
      `| ${label} | ${['worker', 'postgres', 'redis', 'receiver', 'total'].map((k) => Math.round(cpu[k])).join(' | ')} |`;
    const text = [
      '## Webhook delivery',
      '',
      `Measured ${m.date} on ${h.describeMachine(m)}, with \`node bench/webhooks/run.js --events ${n} --rounds ${options.rounds} --rate ${options.rate} --seconds ${options.seconds}\`.`,
      'Everything on one box: receiver (HTTPS, test CA, answers 204) and producer in one process, the',
      'worker in another, PostgreSQL and a private redis-server without persistence. Throughput is',
      `the drain rate of ${n} queued deliveries (first to last arrival), every attempt logged; the floor`,
      'is a plain BullMQ worker doing the same signed POST through a keep-alive agent with batched log',
      `INSERTs (\`bench/webhooks/floor-worker.js\`). The two drain in ${options.rounds} alternating rounds in the`,
      'same run; the table gives the medians, with the range across rounds.',
      '',
      '| case | deliveries/s (median) | range | target |',
      '|---|---|---|---|',
      `| Switchboard (outbox, claim, signed POST, write-behind attempt log) | ${Math.round(switchboardRate)} | ${range(rounds.map((r) => r.switchboard.rate))} | ≥ ${TARGET_RATE}: ${verdict(switchboardRate >= TARGET_RATE)} |`,
      `| floor (plain BullMQ worker) | ${Math.round(floorRate)} | ${range(rounds.map((r) => r.floor.rate))} | |`,
      `| ratio of the medians | ${ratio.toFixed(2)} | ${rounds.map((r) => r.ratio.toFixed(2)).join(', ')} per round | ≥ ${TARGET_RATIO}: ${verdict(ratio >= TARGET_RATIO)} |`,
      '',
      ...(switchboardCpu && floorCpu
        ? [
            'CPU per delivery while draining, µs (median of the rounds; PostgreSQL counts every server process):',
            '',
            '| case | worker | PostgreSQL | Redis | receiver | total |',
            '|---|---|---|---|---|---|',
            cpuRow('Switchboard', switchboardCpu),
            cpuRow('floor', floorCpu),
            '',
          ]
        : []),
      `Commit → first attempt at ${options.rate} events/s for ${options.seconds} s (${total} events, one transaction each):`,
      `p50 ${h.formatMs(latency.p50)} ms, p99 ${h.formatMs(latency.p99)} ms, max ${h.formatMs(latency.max)} ms (target p99 < ${TARGET_P99_MS} ms: ${verdict(latency.p99 < TARGET_P99_MS)}).`,
      '',
    ].join('\n');
    console.log(text);
    if (options.write) await h.writeSection('## Webhook delivery', m, text);
  } finally {
    if (app) await app.close().catch(() => undefined);
    for (const child of children.reverse()) await killChild(child);
    receiver?.close();
  }
}

h.run(main);
