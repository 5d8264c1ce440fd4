#!/usr/bin/env node
'use strict';
// Streams a batch of 1,000,000 call records with phone logs through GET /api/call/export/csv of
// the built server on a new PostgreSQL database, measuring wall time and the server's memory
// over the stream. Target (issue 4): ≤ 20 s with flat memory. The batch is seeded with SQL
// (generate_series), secondary indexes dropped first and rebuilt once, then ANALYZE.
//
//   npm run build && node bench/export/run.js [--rows 1000000] [--write] [--check]

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const h = require('../lib/harness');
const lib = require('../contacts-import/lib');

const TARGET_MS = 20_000;
/** Flat: the peak during the stream stays within this much of the RSS before it. */
const FLAT_MB = 150;

function parseArgs(argv) {
  const options = { rows: 1_000_000, write: false, check: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--rows') options.rows = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else if (argv[i] === '--check') options.check = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

/**
 * Five contact fields (one in 1,000 notes starts with = to exercise the formula escaping);
 * half the records have a phone log, one in ten a second, later one with a recording URL and a
 * 200-character transcript.
 */
async function seed(db, organizationId, batchId, rows) {
  const { rows: indexes } = await db.query(
    `SELECT indexname, indexdef FROM pg_indexes
     WHERE tablename IN ('call_records', 'phone_logs') AND indexdef NOT LIKE '%UNIQUE%'`,
  );
  for (const { indexname } of indexes) await db.query(`DROP INDEX ${indexname}`);
  await db.query(
    `INSERT INTO call_records (id, organization_id, batch_id, phone_number, contact, created_at)
     SELECT lpad(to_hex(i), 24, '0'), $1, $2, '+1415' || (2000000 + i)::text,
       jsonb_build_object('first_name', 'First' || (i % 4999), 'last_name', 'Last' || (i % 7919),
         'email', 'first' || (i % 4999) || '.' || i || '@example.com', 'account_id', 'ACC-' || i,
         'note', CASE WHEN i % 1000 = 0 THEN '=HYPERLINK("http://x.example","y")' ELSE 'ok, ' || md5(i::text) END),
       now() - ($3 - i) * interval '1 millisecond'
     FROM generate_series(1, $3) AS i`,
    [organizationId, batchId, rows],
  );
  await db.query(
    `INSERT INTO phone_logs (id, organization_id, batch_id, call_record_id, call_status,
       call_duration, recording_url, transcript, created_at)
     SELECT lpad(to_hex(i), 23, '0') || n, $1, $2, lpad(to_hex(i), 24, '0'),
       CASE WHEN n = 2 THEN 'completed' ELSE 'no-answer' END, CASE WHEN n = 2 THEN 60 + i % 300 ELSE 0 END,
       CASE WHEN n = 2 THEN 'https://recordings.example/' || i || '.mp3' END,
       CASE WHEN n = 2 THEN repeat('Hello, this is a test transcript. ', 6) END,
       now() - interval '1 hour' + n * interval '1 minute'
     FROM generate_series(1, $3) AS i, generate_series(1, 2) AS n
     WHERE i % 2 = 0 AND (n = 1 OR i % 10 = 0)`,
    [organizationId, batchId, rows],
  );
  await db.query('UPDATE batches SET total_calls = $2 WHERE id = $1', [batchId, rows]);
  for (const { indexdef } of indexes) await db.query(indexdef);
  await db.query('ANALYZE call_records');
  await db.query('ANALYZE phone_logs');
}

function section(m, options, loadBefore, r) {
  const flat = r.memory.peak - r.memory.before <= FLAT_MB;
  const pass = r.ms <= TARGET_MS && flat;
  const lines = [
    '### Export a batch with phone logs',
    '',
    lib.describeRun(
      m,
      `npm run build && node bench/export/run.js${options.rows === 1_000_000 ? '' : ` --rows ${options.rows}`} --write`,
      loadBefore,
    ),
    '',
    `${options.rows.toLocaleString('en-US')} call records with five contact fields, seeded with SQL; ` +
      `${r.logs.toLocaleString('en-US')} phone logs (half the records have one, a tenth a second, ` +
      'later one with a recording URL and transcript, which the export must pick).',
    '',
    '| rows | wall time s | first byte ms | MB sent | rows/s | server RSS before → peak → after, MB | RSS at 25 / 50 / 75 / 100 %, MB | target | result |',
    '|---:|---:|---:|---:|---:|---|---|---|---|',
    `| ${r.rows.toLocaleString('en-US')} | ${lib.seconds(r.ms)} | ${Math.round(r.firstByteMs)} | ${lib.mb(r.bytes / lib.MB)} | ${Math.round((r.rows / r.ms) * 1000).toLocaleString('en-US')} | ${lib.mb(r.memory.before)} → ${lib.mb(r.memory.peak)} → ${lib.mb(r.memory.after)} | ${r.shape.map(lib.mb).join(' / ')} | ≤ 20 s, peak ≤ before + ${FLAT_MB} MB | ${pass ? 'pass' : '**fail**'} |`,
    '',
  ];
  return { text: lines.join('\n'), pass };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(h.DEFAULT_ENTRY)) {
    throw new Error(`${h.DEFAULT_ENTRY} is missing: run \`npm run build\` first.`);
  }
  const loadBefore = os.loadavg()[0];
  const { server, db } = await lib.startBenchServer();
  try {
    const { token, organizationId, batchId } = await lib.organizationWithBatch(server.port, db);
    const seeding = performance.now();
    await seed(db, organizationId, batchId, options.rows);
    const logs = (await db.query('SELECT count(*)::int AS n FROM phone_logs')).rows[0].n;
    process.stderr.write(`seeded in ${lib.seconds(performance.now() - seeding)} s\n`);

    const watch = lib.memoryWatch(server.child.pid);
    const started = performance.now();
    const download = await lib.downloadExport(server.port, token, batchId);
    const memory = watch.stop();
    if (download.rows !== options.rows) {
      throw new Error(`export wrote ${download.rows} rows of ${options.rows}`);
    }
    const m = await h.machine();
    const { text, pass } = section(m, options, loadBefore, {
      ...download,
      logs,
      memory,
      shape: lib.rssShape(memory.samples, started, started + download.ms),
    });
    console.log(text);
    if (options.write) {
      await lib.writePart('### Export a batch with phone logs', m, text);
      console.error(`wrote ${path.relative(h.ROOT, h.DOC)}`);
    }
    if (options.check && !pass) process.exitCode = 1;
    await h.stopServer(server);
  } finally {
    await db.end();
  }
}

h.run(main);
