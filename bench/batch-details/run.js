#!/usr/bin/env node
'use strict';
// GET /api/call/batch-details latency on a batch of 10,000 and of 1,000,000 call records with
// phone logs, for the four common shapes (default page, page 1,000, callStatus filter, selective
// regex search), with autocannon against the built server on PostgreSQL; and the same SQL through
// a bare `pg` client as the floor.
//
//   npm run build && node bench/batch-details/run.js [--sizes 10000,1000000] [--duration 10] [--write]

const { randomUUID } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');
const h = require('../lib/harness');

const CONNECTIONS = 10;
const CLOCK_TICKS = 100; // USER_HZ on Linux
const TARGET_P99_MS = 50;
const SHAPES = [
  { id: 'default', label: 'default page 1', query: '' },
  { id: 'page1000', label: 'page 1,000', query: '?page=1000&limit=10' },
  {
    id: 'filter',
    label: 'filter {"callStatus":"completed"}',
    query: `?filter=${encodeURIComponent('{"callStatus":"completed"}')}`,
  },
  { id: 'search', label: 'regex search needle-42 (10 hits)', query: '?search=needle-42' },
];

function parseArgs(argv) {
  const options = { sizes: [10_000, 1_000_000], duration: 10, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--sizes') options.sizes = argv[++i].split(',').map(Number);
    else if (argv[i] === '--duration') options.duration = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

/**
 * Seeds one batch with `size` records in bulk: secondary indexes are dropped first and built
 * once afterwards (a trigram index maintained row by row would cost minutes per million).
 * Each record has one phone log; 40 % completed; 10 records carry `needle-42`.
 */
async function seedBatch(db, organizationId, userId, phoneId, size) {
  const batchId = randomUUID().replace(/-/g, '').slice(0, 24);
  await db.query(
    `INSERT INTO batches (id, organization_id, user_id, batch_name, calling_numbers, total_calls)
     VALUES ($1, $2, $3, $4, ARRAY[$5], $6)`,
    [batchId, organizationId, userId, `Bench ${size}`, phoneId, size],
  );
  const started = performance.now();
  await db.query(
    `INSERT INTO call_records (id, organization_id, batch_id, phone_number, contact, last_call_status, created_at)
     SELECT substr(md5($1 || i), 1, 24), $2, $1, '+1' || (2000000000 + i)::text,
            jsonb_build_object('name', 'first' || (i % 5000) || ' last' || (i % 7919), 'account_id', 'A-' || i,
                               'priority', (ARRAY['high','medium','low'])[1 + i % 3],
                               'note', CASE WHEN i % ($3 / 10) = 0 THEN 'needle-42' ELSE md5(i::text) END),
            (ARRAY['completed','completed','completed','completed','no-answer','no-answer','no-answer','failed','failed','busy'])[1 + i % 10],
            now() - ($3 - i) * interval '1 millisecond'
     FROM generate_series(1, $3) AS i`,
    [batchId, organizationId, size],
  );
  await db.query(
    `INSERT INTO phone_logs (id, organization_id, batch_id, call_record_id, request_uuid, call_status, call_duration, created_at)
     SELECT substr(md5('log' || id), 1, 24), organization_id, batch_id, id, gen_random_uuid(), last_call_status,
            CASE WHEN last_call_status = 'completed' THEN 60 ELSE 0 END, created_at
     FROM call_records WHERE batch_id = $1`,
    [batchId],
  );
  // The search index job's work, done in bulk: every record indexed, the watermark at the end.
  await db.query(
    `INSERT INTO call_record_search (call_record_id, batch_id, search_text)
     SELECT id, batch_id, ${SEARCH_TEXT} FROM call_records WHERE batch_id = $1`,
    [batchId],
  );
  await db.query(
    `UPDATE batches SET (search_indexed_at, search_indexed_id) =
       (SELECT created_at, id FROM call_records WHERE batch_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1)
     WHERE id = $1`,
    [batchId],
  );
  await db.query(
    `INSERT INTO batch_status_counts (batch_id, call_status, count)
     SELECT batch_id, last_call_status, count(*) FROM call_records WHERE batch_id = $1 GROUP BY 1, 2`,
    [batchId],
  );
  return { batchId, loadMs: performance.now() - started };
}

/** contactSearchText of src/modules/call-records/call-records.schema.ts. */
const SEARCH_TEXT = `regexp_replace(jsonb_path_query_array(contact, 'strict $.*')::text, '^\\["|"\\]$|", "', E'\\n', 'g')`;

const SECONDARY_INDEXES = [
  [
    'call_records_batch_page_idx',
    'CREATE INDEX call_records_batch_page_idx ON call_records (batch_id, created_at, id)',
  ],
  [
    'call_records_batch_phone_key',
    'CREATE UNIQUE INDEX call_records_batch_phone_key ON call_records (batch_id, phone_number)',
  ],
  [
    'call_records_batch_status_page_idx',
    'CREATE INDEX call_records_batch_status_page_idx ON call_records (batch_id, last_call_status, created_at, id)',
  ],
  [
    'call_record_search_trgm_idx',
    'CREATE INDEX call_record_search_trgm_idx ON call_record_search USING gin (search_text gin_trgm_ops)',
  ],
  [
    'call_records_pending_number_idx',
    "CREATE INDEX call_records_pending_number_idx ON call_records (organization_id, phone_number) WHERE status = 'pending'",
  ],
  [
    'phone_logs_record_created_idx',
    'CREATE INDEX phone_logs_record_created_idx ON phone_logs (call_record_id, created_at)',
  ],
  [
    'phone_logs_request_uuid_key',
    'CREATE UNIQUE INDEX phone_logs_request_uuid_key ON phone_logs (request_uuid)',
  ],
];

/** The statements the app runs for one request of each shape, for the bare-client floor. */
function floorQueries(shape, organizationId, batchId, mark) {
  // Deferred join, as the app does: ids from an index-only scan, then the page's rows.
  const page = (condition, offset) =>
    `SELECT * FROM call_records WHERE organization_id = $1 AND id IN (SELECT id FROM call_records WHERE batch_id = $2 ${condition} ORDER BY created_at, id LIMIT 10 OFFSET ${offset}) ORDER BY created_at, id`;
  const batch = {
    text: 'SELECT * FROM batches WHERE organization_id = $1 AND id = $2 AND NOT is_deleted',
    values: [organizationId, batchId],
  };
  // As the app searches: the trigram-indexed search table up to the watermark, directly after it.
  const search = `AND id IN (
    SELECT s.call_record_id FROM call_record_search s
    WHERE s.batch_id = $2 AND s.search_text ~* ('(?n)' || $3::text)
    UNION ALL
    SELECT t.id FROM call_records t
    WHERE t.batch_id = $2 AND (t.created_at, t.id) > ($4::timestamptz, $5::varchar)
      AND ${SEARCH_TEXT.replace('contact', 't.contact')} ~* ('(?n)' || $3::text))`;
  switch (shape) {
    case 'default':
      return [batch, { text: page('', 0), values: [organizationId, batchId] }];
    case 'page1000':
      return [batch, { text: page('', 9990), values: [organizationId, batchId] }];
    case 'filter':
      return [
        batch,
        {
          text: 'SELECT count FROM batch_status_counts JOIN batches ON batches.id = batch_id AND batches.organization_id = $1 WHERE batch_id = $2 AND call_status = $3',
          values: [organizationId, batchId, 'completed'],
        },
        {
          text: page('AND last_call_status = $3', 0),
          values: [organizationId, batchId, 'completed'],
        },
      ];
    case 'search':
      return [
        batch,
        { text: page(search, 0), values: [organizationId, batchId, 'needle-42', ...mark] },
        {
          text: `SELECT count(*) FROM call_records WHERE organization_id = $1 AND batch_id = $2 ${search}`,
          values: [organizationId, batchId, 'needle-42', ...mark],
        },
      ];
    default:
      throw new Error(shape);
  }
}

/** CONNECTIONS clients each running the shape's statements in a loop for `seconds`. */
async function floor(url, shape, organizationId, batchId, seconds) {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  // The search watermark, which the app reads with the batch row and passes as values.
  const { rows: marks } = await clients[0].query(
    'SELECT search_indexed_at::text AS at, search_indexed_id AS id FROM batches WHERE id = $1',
    [batchId],
  );
  const mark = [marks[0].at, marks[0].id];
  const latencies = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        const started = performance.now();
        for (const query of floorQueries(shape, organizationId, batchId, mark)) {
          const result = await client.query(query);
          if (query.text.startsWith('SELECT * FROM call_records')) {
            const ids = result.rows.map((row) => row.id);
            await client.query(
              'SELECT * FROM phone_logs WHERE organization_id = $1 AND call_record_id = ANY($2) ORDER BY created_at, id',
              [organizationId, ids],
            );
          }
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  await Promise.all(clients.map((client) => client.end()));
  const { p50, p99 } = h.percentiles(latencies);
  return { p50, p99, rps: latencies.length / seconds };
}

/** CPU time (user + system) the process has used, in ms: less swayed by a busy box than latency. */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

async function load(port, token, route, seconds) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${route}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${route}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    total: result.requests.total,
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const loadBefore = require('node:os').loadavg()[0];
  const { server, database, db } = await h.startOnPostgres();
  const port = server.port;
  const session = await h.json(port, 'POST', '/api/auth/register', {
    organizationName: 'Bench',
    name: 'Bench',
    email: 'bench@example.com',
    password: 'bench password',
  });
  const { accessToken: token, user } = session.data;
  const phoneId = randomUUID().replace(/-/g, '').slice(0, 24);
  await db.query(
    `INSERT INTO phone_numbers (id, organization_id, user_id, phone_number, integration, credentials, provider_number_id)
     VALUES ($1, $2, $3, '+14155550100', 'provider_two', 'v1.placeholder', 'PN1')`,
    [phoneId, user.organizationId, user._id],
  );
  for (const [name] of SECONDARY_INDEXES) await db.query(`DROP INDEX IF EXISTS ${name}`);
  const batches = [];
  for (const size of options.sizes) {
    const seeded = await seedBatch(db, user.organizationId, user._id, phoneId, size);
    batches.push({ size, ...seeded });
    process.stderr.write(
      `seeded ${size.toLocaleString('en-US')} records in ${h.formatMs(seeded.loadMs)} ms\n`,
    );
  }
  const indexStarted = performance.now();
  await db.query("SET maintenance_work_mem = '256MB'");
  for (const [, statement] of SECONDARY_INDEXES) await db.query(statement);
  await db.query(
    'VACUUM ANALYZE call_records, call_record_search, phone_logs, batches, batch_status_counts',
  );
  const indexMs = performance.now() - indexStarted;
  process.stderr.write(`indexes built and analysed in ${h.formatMs(indexMs)} ms\n`);
  await db.end();

  const rows = [];
  for (const batch of batches) {
    for (const shape of SHAPES) {
      const route = `/api/call/batch-details/${batch.batchId}${shape.query}`;
      await load(port, token, route, 2); // warm-up
      const cpuBefore = cpuMs(server.child.pid);
      const api = await load(port, token, route, options.duration);
      api.cpuPerRequest = (cpuMs(server.child.pid) - cpuBefore) / api.total;
      const bare = await floor(
        database.url,
        shape.id,
        user.organizationId,
        batch.batchId,
        options.duration,
      );
      rows.push({ size: batch.size, shape, api, bare });
      process.stderr.write(
        `${batch.size} ${shape.id}: API p99 ${api.p99} ms (${Math.round(api.rps)} req/s, server CPU ${api.cpuPerRequest.toFixed(2)} ms/req); SQL p99 ${bare.p99.toFixed(1)} ms\n`,
      );
    }
  }
  await h.stopServer(server);

  const m = { ...(await h.machine()), loadBefore };
  const largest = Math.max(...options.sizes);
  const smallest = Math.min(...options.sizes);
  const lines = [
    '## Batch details',
    '',
    `Measured ${m.date} on ${h.describeMachine(m)} with \`npm run build && node bench/batch-details/run.js --duration ${options.duration} --write\` (1-minute load average before: ${loadBefore.toFixed(2)}).`,
    '',
    `\`GET /api/call/batch-details/{id}\` through the built server on PostgreSQL, autocannon with ${CONNECTIONS} connections for ${options.duration} s per row after a 2 s warm-up; everything (load generator, server, PostgreSQL) on the same 2 cores. “SQL floor” runs the same SQL work as the server, as separate statements (batch row, page, phone logs of the page, and the count or counter; the server sends the last three as one statement, and reads the user's role and permissions first), through ${CONNECTIONS} bare \`pg\` clients for the same time. Seeding: ${batches.map((b) => `${b.size.toLocaleString('en-US')} records + logs in ${h.formatMs(b.loadMs)} ms`).join('; ')}, with secondary indexes dropped and built once afterwards in ${h.formatMs(indexMs)} ms.`,
    '',
    '| records | shape | API p50 ms | API p99 ms | API req/s | server CPU ms/req | SQL floor p50 ms | SQL floor p99 ms | API p99 − floor p99 | target p99 ≤ 50 ms |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const verdict =
      row.size === largest ? (row.api.p99 <= TARGET_P99_MS ? 'pass' : '**fail**') : '—';
    lines.push(
      `| ${row.size.toLocaleString('en-US')} | ${row.shape.label} | ${row.api.p50} | ${row.api.p99} | ${Math.round(row.api.rps)} | ${row.api.cpuPerRequest.toFixed(2)} | ${row.bare.p50.toFixed(1)} | ${row.bare.p99.toFixed(1)} | ${(row.api.p99 - row.bare.p99).toFixed(1)} | ${verdict} |`,
    );
  }
  lines.push(
    '',
    `Growth with the batch size (p99 on ${largest.toLocaleString('en-US')} ÷ p99 on ${smallest.toLocaleString('en-US')}, target ≤ 1.5):`,
    '',
  );
  for (const shape of SHAPES) {
    const big = rows.find((r) => r.size === largest && r.shape.id === shape.id);
    const small = rows.find((r) => r.size === smallest && r.shape.id === shape.id);
    const ratio = big.api.p99 / Math.max(1, small.api.p99);
    lines.push(`- ${shape.label}: ${ratio.toFixed(2)} (${ratio <= 1.5 ? 'pass' : '**fail**'})`);
  }
  lines.push('');
  const text = lines.join('\n');
  console.log(text);
  if (options.write) {
    await h.writeSection('## Batch details', m, text);
    console.error(`wrote ${path.relative(h.ROOT, h.DOC)}`);
  }
}

h.run(main);
