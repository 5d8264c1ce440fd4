'use strict';
// Shared by bench/contacts-import and bench/export: a server on a throw-away PostgreSQL database,
// an organization and a batch, the server's memory read from /proc, a streamed CSV export, and
// the "## Contacts import and export" section of docs/benchmarks.md (one ### part per script).

const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const h = require('../lib/harness');

const SECTION = '## Contacts import and export';
const MB = 1024 * 1024;

/** The built server on a new database, with uploads large enough for a 1M-row CSV. */
function startBenchServer() {
  return h.startOnPostgres({ UPLOAD_MAX_BYTES: String(512 * MB) });
}

/** Registers an organization; inserts its batch directly (create-batch needs a live provider). */
async function organizationWithBatch(port, db) {
  const { data } = await h.json(port, 'POST', '/api/auth/register', {
    organizationName: 'Bench org',
    name: 'Bench Admin',
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: 'bench password 1',
  });
  const batchId = randomBytes(12).toString('hex');
  await db.query(
    `INSERT INTO batches (id, organization_id, user_id, batch_name, calling_numbers)
     VALUES ($1, $2, $3, 'Bench batch', '{}')`,
    [batchId, data.user.organizationId, data.user._id],
  );
  return { token: data.accessToken, organizationId: data.user.organizationId, batchId };
}

/** VmRSS / VmHWM of a process in MB. */
function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)[1]) / 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/**
 * Follows a process's memory during one phase: VmHWM is reset first (clear_refs 5), so the peak
 * read at the end is the true peak of the phase, not a sampled one; samples every 100 ms give
 * the shape over time.
 */
function memoryWatch(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted: VmHWM then covers the whole process life (still an upper bound).
  }
  const before = memory(pid).rss;
  const samples = [];
  const timer = setInterval(() => {
    try {
      samples.push({ at: performance.now(), rss: memory(pid).rss });
    } catch {
      // the process is gone
    }
  }, 100);
  return {
    before,
    samples,
    stop() {
      clearInterval(timer);
      const { rss, hwm } = memory(pid);
      return { before, after: rss, peak: Math.max(hwm, ...samples.map((s) => s.rss)), samples };
    },
  };
}

/** RSS at 25/50/75/100 % of a phase, from the samples. */
function rssShape(samples, started, ended) {
  return [0.25, 0.5, 0.75, 1].map((fraction) => {
    const at = started + (ended - started) * fraction;
    const sample = samples.reduce(
      (best, s) => (Math.abs(s.at - at) < Math.abs(best.at - at) ? s : best),
      samples[0] || { rss: NaN, at },
    );
    return sample.rss;
  });
}

/** GET the export and count its rows (newlines) without keeping it; the client stays cheap. */
function downloadExport(port, token, batchId) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/api/call/export/csv?batchId=${batchId}`,
        headers: { authorization: `Bearer ${token}` },
      },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`export answered ${response.statusCode}`));
          response.resume();
          return;
        }
        let bytes = 0;
        let lines = 0;
        let firstByteMs;
        response.on('data', (chunk) => {
          if (firstByteMs === undefined) firstByteMs = performance.now() - started;
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
        });
        response.on('end', () =>
          resolve({ ms: performance.now() - started, firstByteMs, bytes, rows: lines - 1 }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

const mb = (value) => `${Math.round(value)}`;
const seconds = (ms) => (ms / 1000).toFixed(1);

/** Replaces this script's ### part of the section, keeping the other script's part. */
async function writePart(partHeading, machineInfo, partText) {
  const existing = fs.existsSync(h.DOC) ? fs.readFileSync(h.DOC, 'utf8') : '';
  const start = existing.indexOf(`${SECTION}\n`);
  let parts = [];
  if (start !== -1) {
    const rest = existing.slice(start + SECTION.length);
    const next = rest.search(/^## /m);
    const body = next === -1 ? rest : rest.slice(0, next);
    parts = body
      .split(/^(?=### )/m)
      .filter((part) => part.startsWith('### ') && !part.startsWith(`${partHeading}\n`))
      .map((part) => part.trimEnd());
  }
  parts.push(partText.trimEnd());
  parts.sort();
  const text = [
    SECTION,
    '',
    'Contacts appended through `POST /api/call/batches/{batchId}/contacts` (a streamed multipart',
    'CSV upload) and read back through `GET /api/call/export/csv`, against the built server',
    '(`node dist/bundle/main.js`) on a new PostgreSQL database. Peak RSS is the server process’s',
    'VmHWM, reset before each phase (`/proc/<pid>/clear_refs`), so it is the true peak of that',
    'phase. Load generator, server and PostgreSQL share the machine.',
    '',
    ...parts.flatMap((part) => [part, '']),
  ].join('\n');
  await h.writeSection(SECTION, machineInfo, text);
}

function describeRun(m, command, loadBefore) {
  return (
    `Measured ${m.date} on ${h.describeMachine(m)} with \`${command}\` ` +
    `(1-minute load average before the run: ${loadBefore.toFixed(2)}).`
  );
}

module.exports = {
  MB,
  startBenchServer,
  organizationWithBatch,
  memory,
  memoryWatch,
  rssShape,
  downloadExport,
  writePart,
  describeRun,
  mb,
  seconds,
};
