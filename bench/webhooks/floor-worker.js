'use strict';
// The bare floor of webhook delivery: a plain BullMQ worker doing the same signed HTTPS POST
// through a keep-alive agent and logging every attempt with batched INSERTs (one
// `INSERT … unnest` per ≤ 100 rows or 10 ms, each job awaiting its batch), as in
// /work/shared/research/floors.md §5. Run by run.js: node floor-worker.js (env below).

const { createHmac } = require('node:crypto');
const https = require('node:https');
const { Worker } = require('bullmq');
const { Pool } = require('pg');

const { REDIS_URL, REDIS_PREFIX, DATABASE_URL, FLOOR_QUEUE, SECRET, CONCURRENCY } = process.env;
const key = Buffer.from(SECRET.replace(/^whsec_/, ''), 'base64');
const agent = new https.Agent({ keepAlive: true, maxSockets: 50 });
const pool = new Pool({ connectionString: DATABASE_URL, max: 10 });

let buffer = [];
let timer;
function flush() {
  clearTimeout(timer);
  timer = undefined;
  const batch = buffer;
  buffer = [];
  if (batch.length === 0) return;
  pool
    .query(
      `INSERT INTO floor_delivery_log (job_id, endpoint, status_code, attempt, latency_ms)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[])`,
      [
        batch.map((e) => e.row[0]),
        batch.map((e) => e.row[1]),
        batch.map((e) => e.row[2]),
        batch.map((e) => e.row[3]),
        batch.map((e) => e.row[4]),
      ],
    )
    .then(
      () => batch.forEach((e) => e.resolve()),
      (error) => batch.forEach((e) => e.reject(error)),
    );
}
function log(row) {
  return new Promise((resolve, reject) => {
    buffer.push({ row, resolve, reject });
    if (buffer.length >= 100) flush();
    else timer ??= setTimeout(flush, 10);
  });
}

function post(url, id, body) {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': `v1,${signature}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const worker = new Worker(
  FLOOR_QUEUE,
  async (job) => {
    const started = performance.now();
    const status = await post(job.data.url, job.data.id, job.data.body);
    await log([job.id, job.data.url, status, 1, Math.round(performance.now() - started)]);
  },
  {
    connection: { url: REDIS_URL, maxRetriesPerRequest: null },
    prefix: REDIS_PREFIX,
    concurrency: Number(CONCURRENCY),
  },
);
worker.on('error', () => undefined);
process.on('SIGTERM', async () => {
  await worker.close();
  await pool.end();
  process.exit(0);
});
