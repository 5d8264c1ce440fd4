#!/usr/bin/env node
'use strict';
// Imports a 1,000,000-row CSV through POST /api/call/batches/{batchId}/contacts (multipart,
// streamed from a temp file) into the built server on a new PostgreSQL database, measuring wall
// time and the server's peak RSS; then exports the batch back through GET /api/call/export/csv.
// Targets (issue 4): import ≤ 30 s with peak RSS ≤ 300 MB; export ≤ 20 s with flat memory.
//
//   npm run build && node bench/contacts-import/run.js [--rows 1000000] [--write] [--check]

const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const h = require('../lib/harness');
const lib = require('./lib');

const TARGETS = { importMs: 30_000, importRssMb: 300, exportMs: 20_000 };
const BOUNDARY = '----switchboard-bench-boundary';

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
 * A contact list with five fields and a little spreadsheet damage: every 1,000th number without
 * its +, every 10,000th row an invalid number and the row after it a duplicate.
 */
async function writeCsv(file, rows) {
  const out = fs.createWriteStream(file);
  let buffer = 'phoneNumber,first_name,last_name,email,account_id,priority\n';
  for (let i = 0; i < rows; i += 1) {
    let phone = `+1415${2_000_000 + i}`;
    if (i % 1_000 === 999) phone = phone.slice(1);
    if (i % 10_000 === 5_000) phone = '555-0100';
    if (i % 10_000 === 5_001) phone = `+1415${2_000_000 + i - 2}`;
    const first = `First${i % 4_999}`;
    const last = `Last${i % 7_919}`;
    buffer += `${phone},${first},${last},${first.toLowerCase()}.${i}@example.com,ACC-${i},${['low', 'normal', 'high'][i % 3]}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await new Promise((resolve) => out.once('drain', resolve));
      buffer = '';
    }
  }
  out.end(buffer);
  await new Promise((resolve, reject) => out.on('finish', resolve).on('error', reject));
  return fs.statSync(file).size;
}

/** Streams the file as the `file` part of a multipart body; resolves with the parsed answer. */
function uploadCsv(port, token, batchId, file) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="contacts.csv"\r\n` +
      'Content-Type: text/csv\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/call/batches/${batchId}/contacts`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': length,
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString());
          if (response.statusCode !== 201) {
            reject(new Error(`upload answered ${response.statusCode}: ${JSON.stringify(body)}`));
          } else resolve(body.data);
        });
      },
    );
    request.on('error', reject);
    request.write(head);
    const stream = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
    stream.on('error', reject);
    stream.on('end', () => request.end(tail));
    stream.pipe(request, { end: false });
  });
}

function section(m, options, loadBefore, r) {
  const pass = {
    import: r.import.ms <= TARGETS.importMs && r.import.memory.peak <= TARGETS.importRssMb,
    export: r.export.ms <= TARGETS.exportMs,
  };
  const shape = (values) => values.map(lib.mb).join(' / ');
  const lines = [
    '### Import a CSV, then export it back',
    '',
    lib.describeRun(
      m,
      `npm run build && node bench/contacts-import/run.js${options.rows === 1_000_000 ? '' : ` --rows ${options.rows}`} --write`,
      loadBefore,
    ),
    '',
    `The CSV: ${options.rows.toLocaleString('en-US')} rows of phoneNumber plus five contact fields ` +
      `(first_name, last_name, email, account_id, priority), ${lib.mb(r.csvBytes / lib.MB)} MB; every ` +
      '1,000th number without its +, every 10,000th row an invalid number followed by a duplicate.',
    '',
    '| phase | rows | wall time s | rows/s | server RSS before → peak → after, MB | RSS at 25 / 50 / 75 / 100 %, MB | target | result |',
    '|---|---:|---:|---:|---|---|---|---|',
    `| import (upload → 201 with the report) | ${r.import.report.imported.toLocaleString('en-US')} imported of ${r.import.report.received.toLocaleString('en-US')} | ${lib.seconds(r.import.ms)} | ${Math.round((r.import.report.received / r.import.ms) * 1000).toLocaleString('en-US')} | ${lib.mb(r.import.memory.before)} → ${lib.mb(r.import.memory.peak)} → ${lib.mb(r.import.memory.after)} | ${shape(r.import.shape)} | ≤ 30 s, peak ≤ 300 MB | ${pass.import ? 'pass' : '**fail**'} |`,
    `| export (GET → last byte, ${lib.mb(r.export.bytes / lib.MB)} MB) | ${r.export.rows.toLocaleString('en-US')} | ${lib.seconds(r.export.ms)} | ${Math.round((r.export.rows / r.export.ms) * 1000).toLocaleString('en-US')} | ${lib.mb(r.export.memory.before)} → ${lib.mb(r.export.memory.peak)} → ${lib.mb(r.export.memory.after)} | ${shape(r.export.shape)} | ≤ 20 s, flat | ${pass.export ? 'pass' : '**fail**'} |`,
    '',
    `Import report: received ${r.import.report.received}, imported ${r.import.report.imported}, ` +
      `rejected ${r.import.report.rejected}; batch totalCalls ${r.totalCalls} and ${r.records} call ` +
      `records in the database. Export: first byte after ${Math.round(r.export.firstByteMs)} ms. ` +
      `The search index job (started when the import answered, alongside the export) had indexed ` +
      `every record ${lib.seconds(r.indexedMs)} s after the import.`,
    '',
  ];
  return { text: lines.join('\n'), pass };
}

/** Waits until every record of the batch has its search row; ms from `since`. */
async function searchIndexedAfter(db, batchId, since) {
  const deadline = performance.now() + 600_000;
  for (;;) {
    const { rows } = await db.query(
      `SELECT (SELECT count(*) FROM call_records WHERE batch_id = $1) = (SELECT count(*) FROM call_record_search WHERE batch_id = $1) AS done`,
      [batchId],
    );
    if (rows[0].done) return performance.now() - since;
    if (performance.now() > deadline) throw new Error('the search index did not catch up');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(h.DEFAULT_ENTRY)) {
    throw new Error(`${h.DEFAULT_ENTRY} is missing: run \`npm run build\` first.`);
  }
  const loadBefore = os.loadavg()[0];
  const csvDir = h.newDataDir();
  const csvFile = path.join(csvDir, 'contacts.csv');
  const csvBytes = await writeCsv(csvFile, options.rows);
  process.stderr.write(`wrote ${options.rows} rows, ${lib.mb(csvBytes / lib.MB)} MB\n`);

  const { server, db } = await lib.startBenchServer();
  try {
    const { token, batchId } = await lib.organizationWithBatch(server.port, db);
    const pid = server.child.pid;

    let watch = lib.memoryWatch(pid);
    let started = performance.now();
    const report = await uploadCsv(server.port, token, batchId, csvFile);
    const importMs = performance.now() - started;
    const importEnded = performance.now();
    let memory = watch.stop();
    const imported = {
      ms: importMs,
      report,
      memory,
      shape: lib.rssShape(memory.samples, started, started + importMs),
    };
    process.stderr.write(
      `import: ${lib.seconds(importMs)} s, peak RSS ${lib.mb(memory.peak)} MB\n`,
    );
    const { rows } = await db.query(
      'SELECT (SELECT total_calls FROM batches WHERE id = $1) AS total, (SELECT count(*)::int FROM call_records WHERE batch_id = $1) AS records',
      [batchId],
    );

    watch = lib.memoryWatch(pid);
    started = performance.now();
    const download = await lib.downloadExport(server.port, token, batchId);
    memory = watch.stop();
    const exported = {
      ...download,
      memory,
      shape: lib.rssShape(memory.samples, started, started + download.ms),
    };
    process.stderr.write(`export: ${lib.seconds(download.ms)} s, ${download.rows} rows\n`);
    if (download.rows !== report.imported) {
      throw new Error(`export wrote ${download.rows} rows, ${report.imported} were imported`);
    }

    // The search index job started when the import answered and ran alongside the export.
    const indexed = await searchIndexedAfter(db, batchId, importEnded);
    process.stderr.write(`search index caught up ${lib.seconds(indexed)} s after the import\n`);

    const m = await h.machine();
    const { text, pass } = section(m, options, loadBefore, {
      indexedMs: indexed,
      csvBytes,
      import: imported,
      export: exported,
      totalCalls: rows[0].total,
      records: rows[0].records,
    });
    console.log(text);
    if (options.write) {
      await lib.writePart('### Import a CSV, then export it back', m, text);
      console.error(`wrote ${path.relative(h.ROOT, h.DOC)}`);
    }
    if (options.check && !(pass.import && pass.export)) process.exitCode = 1;
    await h.stopServer(server);
  } finally {
    await db.end();
  }
}

h.run(main);
