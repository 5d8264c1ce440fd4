#!/usr/bin/env node
'use strict';
// Fairness between tenants: organization Y's latency from commit to delivery, alone and while
// organization X's endpoint hangs (accepts the request, never answers: each attempt holds its
// worker slot until the 15 s attempt timeout) with a backlog and a steady stream of events.
// Target (issue 11): Y's p95 with X hanging ≤ 2 × Y's p95 alone. Self-contained like run.js:
// its own redis-server, a throw-away database, both receivers (separate ports: separate hosts)
// and the producer in this process, one worker (dist/bundle/worker.js, or --worker another
// build's, for an A/B run) as a child. Each round: Y alone, then Y beside a new organization X.
//
//   npm run build && node bench/webhooks/fairness.js [--rate 100] [--x-rate 100] [--backlog 2000]
//     [--seconds 20] [--rounds 2] [--worker dist/bundle/worker.js] [--write]

const path = require('node:path');
const h = require('../lib/harness');
const {
  killChild,
  quantile,
  startProducer,
  startReceiver,
  startRedis,
  startWorker,
  switchboardEnv,
  waitUntil,
} = require('./common');

const TARGET_RATIO = 2;
const BACKLOG_PER_TRANSACTION = 50;

function parseArgs(argv) {
  const options = { rate: 100, xRate: 100, backlog: 2000, seconds: 20, rounds: 2, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--rate') options.rate = Number(argv[++i]);
    else if (argv[i] === '--x-rate') options.xRate = Number(argv[++i]);
    else if (argv[i] === '--backlog') options.backlog = Number(argv[++i]);
    else if (argv[i] === '--seconds') options.seconds = Number(argv[++i]);
    else if (argv[i] === '--rounds') options.rounds = Number(argv[++i]);
    else if (argv[i] === '--worker') options.worker = path.resolve(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const redis = await startRedis();
  const children = [redis.child];
  let app;
  const receivers = [];
  try {
    const { env } = await switchboardEnv(redis.url);
    const fast = await startReceiver();
    const hanging = await startReceiver({ hang: true });
    receivers.push(fast, hanging);
    const producer = await startProducer(env);
    app = producer.app;
    const { db, raise } = producer;
    const y = await producer.organizationWithWebhook(fast.url('/y'));
    startWorker(env, children, options.worker);
    let sequence = 0;
    // A transaction that fails (the box is shared: a pool timeout) is counted, not fatal; its
    // event never commits, so it is not waited for.
    const settle = (work) =>
      db.transaction(work).then(
        () => undefined,
        (error) => error,
      );

    /** Y's events at `rate` for `seconds` (X's too, if given): Y's commit → delivery, ms. */
    const measure = async (x) => {
      const commits = new Map();
      const pending = [];
      const total = options.rate * options.seconds;
      const started = Date.now();
      let xRaised = 0;
      for (let i = 0; i < total; i += 1) {
        const due = started + (i * 1000) / options.rate;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const callId = `y-${(sequence += 1)}`;
        pending.push(
          settle(async () => {
            let eventId = '';
            // Registered first, so it runs first after the commit: the commit time.
            db.afterCommit(() => void commits.set(eventId, Date.now()));
            eventId = (await raise(y.organizationId, callId)).id;
          }),
        );
        // X's due events in one transaction per tick.
        const xDue = x ? Math.floor(((Date.now() - started) * options.xRate) / 1000) - xRaised : 0;
        if (xDue > 0) {
          xRaised += xDue;
          pending.push(
            settle(async () => {
              for (let j = 0; j < xDue; j += 1)
                await raise(x.organizationId, `x-${(sequence += 1)}`);
            }),
          );
        }
      }
      const failed = (await Promise.all(pending)).filter(Boolean);
      if (failed.length > 0) console.log(`${failed.length} transactions failed: ${failed[0]}`);
      const seen = fast.seen('/y');
      await waitUntil(() => [...commits.keys()].every((id) => seen.has(id)), 300_000, 'Y');
      return [...commits].map(([id, at]) => seen.get(id) - at);
    };

    // Measured from a running worker: one event first, delivered once the worker is up.
    const warmUp = await db.transaction(() => raise(y.organizationId, 'y-warm-up'));
    await waitUntil(() => fast.seen('/y').has(warmUp.id), 120_000, 'the warm-up delivery');
    const rounds = [];
    for (let round = 0; round < options.rounds; round += 1) {
      const alone = await measure(undefined);
      hanging.forget('/x');
      const x = await producer.organizationWithWebhook(hanging.url('/x'));
      for (let i = 0; i < options.backlog; i += BACKLOG_PER_TRANSACTION) {
        await db.transaction(async () => {
          const end = Math.min(options.backlog, i + BACKLOG_PER_TRANSACTION);
          for (let j = i; j < end; j += 1) await raise(x.organizationId, `xb-${round}-${j}`);
        });
      }
      const beside = await measure(x);
      const result = {
        alone: { p50: quantile(alone, 0.5), p95: quantile(alone, 0.95) },
        beside: { p50: quantile(beside, 0.5), p95: quantile(beside, 0.95) },
        xAttempts: hanging.seen('/x').size,
      };
      result.ratio = result.beside.p95 / result.alone.p95;
      rounds.push(result);
      console.log(
        `round ${round + 1}: Y alone p50 ${h.formatMs(result.alone.p50)} ms, p95 ${h.formatMs(result.alone.p95)} ms; ` +
          `beside hanging X p50 ${h.formatMs(result.beside.p50)} ms, p95 ${h.formatMs(result.beside.p95)} ms; ` +
          `ratio ${result.ratio.toFixed(2)}; X requests received ${result.xAttempts}`,
      );
    }

    const median = (values) => h.stats(values).median;
    const alone95 = median(rounds.map((r) => r.alone.p95));
    const beside95 = median(rounds.map((r) => r.beside.p95));
    const ratio = median(rounds.map((r) => r.ratio));
    const m = await h.machine();
    const worker = options.worker ? path.relative(h.ROOT, options.worker) : 'dist/bundle/worker.js';
    const text = [
      '## Webhook fairness',
      '',
      `Measured ${m.date} on ${h.describeMachine(m)}, with \`node bench/webhooks/fairness.js --rate ${options.rate} --x-rate ${options.xRate} --backlog ${options.backlog} --seconds ${options.seconds} --rounds ${options.rounds}\` (worker \`${worker}\`).`,
      `Organization Y raises ${options.rate} events/s for ${options.seconds} s, each in its own transaction, to a`,
      'receiver that answers 204; its latency is commit → first arrival. Each round measures Y alone,',
      `then beside a new organization X whose endpoint (another port) accepts requests and never`,
      `answers, with a backlog of ${options.backlog} events and ${options.xRate} more per second. One worker.`,
      '',
      '| round | Y alone p50 / p95 (ms) | Y beside hanging X p50 / p95 (ms) | p95 ratio | X requests received |',
      '|---|---|---|---|---|',
      ...rounds.map(
        (r, i) =>
          `| ${i + 1} | ${h.formatMs(r.alone.p50)} / ${h.formatMs(r.alone.p95)} | ${h.formatMs(r.beside.p50)} / ${h.formatMs(r.beside.p95)} | ${r.ratio.toFixed(2)} | ${r.xAttempts} |`,
      ),
      '',
      `Median p95: alone ${h.formatMs(alone95)} ms, beside hanging X ${h.formatMs(beside95)} ms; median ratio ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : '**not met**'}).`,
      '',
    ].join('\n');
    console.log(text);
    if (options.write) await h.writeSection('## Webhook fairness', m, text);
  } finally {
    if (app) await app.close().catch(() => undefined);
    for (const child of children.reverse()) await killChild(child);
    for (const receiver of receivers) receiver.close();
  }
}

h.run(main);
