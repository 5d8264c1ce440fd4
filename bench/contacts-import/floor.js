#!/usr/bin/env node
'use strict';
// Where the import time goes: the statement the import runs per chunk of 5,000 rows (DNC check,
// INSERT … ON CONFLICT, totalCalls update), sent through a bare `pg` client with every chunk
// serialized beforehand, so the figure is PostgreSQL's alone; once on the schema as migrated and
// once without the foreign key of call_records to its batch. (The trigram index is not on the
// import path: the search index job fills call_record_search afterwards.)
//
//   npm run build && node bench/contacts-import/floor.js [--rows 1000000] [--write]

const path = require('node:path');
const os = require('node:os');
const h = require('../lib/harness');
const lib = require('./lib');

const CHUNK = 5_000;
const PART = '### Import: where the time goes';

// As CallRecordsRepository.appendContacts: the search watermark moves back before new records.
const LOWERED = `EXISTS (SELECT 1 FROM inserted) AND (now(), ''::varchar) < (search_indexed_at, search_indexed_id)`;
const APPEND = `
  WITH input AS (
    SELECT e->>0 AS id, e->>1 AS phone_number, e->2 AS contact FROM jsonb_array_elements($3::jsonb) AS e
  ), dnc AS (
    SELECT d.phone_number FROM dnc_entries d
    WHERE d.organization_id = $1 AND d.phone_number IN (SELECT phone_number FROM input)
  ), inserted AS (
    INSERT INTO call_records (id, organization_id, batch_id, phone_number, contact)
    SELECT id, $1, $2, phone_number, contact FROM input
    WHERE phone_number NOT IN (SELECT phone_number FROM dnc)
    ON CONFLICT (batch_id, phone_number) DO NOTHING
    RETURNING phone_number
  ), counted AS (
    UPDATE batches SET total_calls = total_calls + (SELECT count(*) FROM inserted), updated_at = now(),
      search_indexed_at = CASE WHEN ${LOWERED} THEN now() ELSE search_indexed_at END,
      search_indexed_id = CASE WHEN ${LOWERED} THEN '' ELSE search_indexed_id END
    WHERE id = $2 AND organization_id = $1
  )
  SELECT count(*) FROM dnc`;

const FOREIGN_KEY = {
  drop: 'ALTER TABLE call_records DROP CONSTRAINT call_records_batch_id_batches_id_fk',
  restore: `ALTER TABLE call_records
    ADD CONSTRAINT call_records_batch_id_batches_id_fk FOREIGN KEY (batch_id) REFERENCES batches(id) ON DELETE CASCADE`,
};
const VARIANTS = [
  { label: 'schema as migrated (4 secondary indexes, foreign key to batches)', change: [] },
  { label: 'without the foreign key to batches', change: [FOREIGN_KEY] },
];

/** Whether the import target (30 s per 1M rows) is reachable above this floor at all. */
function verdict(ms, rows) {
  const targetMs = (30_000 * rows) / 1_000_000;
  return ms > targetMs
    ? `On the schema as migrated PostgreSQL alone needs ${lib.seconds(ms)} s, more than the ` +
        `import target of ${lib.seconds(targetMs)} s: no change in the application can meet it.`
    : `On the schema as migrated PostgreSQL alone needs ${lib.seconds(ms)} s of the ` +
        `${lib.seconds(targetMs)} s import target.`;
}

function parseArgs(argv) {
  const options = { rows: 1_000_000, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--rows') options.rows = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

/** The same rows as run.js writes to its CSV, already in the import's JSON form. */
function chunks(rows) {
  const out = [];
  for (let start = 0; start < rows; start += CHUNK) {
    const chunk = [];
    for (let i = start; i < Math.min(rows, start + CHUNK); i += 1) {
      const first = `First${i % 4_999}`;
      chunk.push([
        (0x60000000 + Math.floor(i / 0xffffff)).toString(16) + i.toString(16).padStart(16, '0'),
        `+1415${2_000_000 + i}`,
        {
          first_name: first,
          last_name: `Last${i % 7_919}`,
          email: `${first.toLowerCase()}.${i}@example.com`,
          account_id: `ACC-${i}`,
          priority: ['low', 'normal', 'high'][i % 3],
        },
      ]);
    }
    out.push(JSON.stringify(chunk));
  }
  return out;
}

async function measure(db, organizationId, batchId, payloads) {
  await db.query('TRUNCATE call_records CASCADE');
  await db.query('UPDATE batches SET total_calls = 0 WHERE id = $1', [batchId]);
  await db.query('CHECKPOINT').catch(() => undefined); // superuser only; evens out the runs
  const started = performance.now();
  for (const payload of payloads) await db.query(APPEND, [organizationId, batchId, payload]);
  return performance.now() - started;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const loadBefore = os.loadavg()[0];
  const { server, db } = await lib.startBenchServer();
  try {
    const { organizationId, batchId } = await lib.organizationWithBatch(server.port, db);
    await h.stopServer(server); // the database is migrated; the server is not needed any more
    const payloads = chunks(options.rows);
    const results = [];
    for (const variant of VARIANTS) {
      for (const change of variant.change) await db.query(change.drop);
      const ms = await measure(db, organizationId, batchId, payloads);
      let restoreMs = 0;
      for (const change of variant.change) {
        const started = performance.now();
        await db.query(change.restore);
        restoreMs += performance.now() - started;
      }
      results.push({ ...variant, ms, restoreMs });
      process.stderr.write(`${variant.label}: ${lib.seconds(ms)} s\n`);
    }
    const m = await h.machine();
    const rows = options.rows.toLocaleString('en-US');
    const text = [
      PART,
      '',
      lib.describeRun(
        m,
        `npm run build && node bench/contacts-import/floor.js${options.rows === 1_000_000 ? '' : ` --rows ${options.rows}`} --write`,
        loadBefore,
      ),
      '',
      `The import's per-chunk statement for ${rows} rows (chunks of ${CHUNK.toLocaleString('en-US')}, ` +
        'serialized beforehand) through a bare `pg` client: PostgreSQL alone, no HTTP, CSV or ' +
        'number validation. Dropped objects are recreated afterwards (their build time shown).',
      '',
      '| call_records | wall time s | rows/s | rebuild afterwards s |',
      '|---|---:|---:|---:|',
      ...results.map(
        (r) =>
          `| ${r.label} | ${lib.seconds(r.ms)} | ${Math.round((options.rows / r.ms) * 1000).toLocaleString('en-US')} | ${r.change.length ? lib.seconds(r.restoreMs) : '–'} |`,
      ),
      '',
      verdict(results[0].ms, options.rows),
      '',
    ].join('\n');
    console.log(text);
    if (options.write) {
      await lib.writePart(PART, m, text);
      console.error(`wrote ${path.relative(h.ROOT, h.DOC)}`);
    }
  } finally {
    await db.end();
  }
}

h.run(main);
