/**
 * Knowledge bases (issue #13): how long a 20 MB PDF takes to become searchable, and how fast
 * search answers over 10,000+ passages. The built server (dist/bundle/main.js, role `all`: the
 * API and the extraction job in one process) on a throw-away PostgreSQL database, its own
 * redis-server and a temp storage dir; everything is removed on exit.
 *
 * 1. Upload: one ~20 MB PDF (bench/knowledge-base-corpus.ts: ~840 pages of prose, each word
 *    positioned on its own) through POST /api/knowledgeBase/createKnowledgeBase (multipart), then
 *    GET …/search?q="<phrase of the last page>" every 100 ms until it is found (bound: 5 min).
 *    Reports upload time, time to searchable, the slowest poll (how long the event loop was
 *    held) and the server's peak RSS (VmHWM).
 * 2. Search: 20 text files of ~450 KB (≥ 10,000 passages) in another base, then sequential
 *    searches of varied kinds (a top word, a mid word, a rare word, two words, a phrase,
 *    web-search syntax, a miss, stop words only) over HTTP with keep-alive: p50/p95/p99 per kind
 *    and overall; and EXPLAIN ANALYZE of the SQL for the worst kind (a top word).
 *
 *   npm run build && npm run bench:knowledge-base -- [--pdf-mb 20] [--searches 2000] [--write]
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool, type Client } from 'pg';
import type { Database } from '../src/database';
import * as schema from '../src/database/schema';
import { KnowledgeBasePassagesRepository } from '../src/modules/knowledge-bases/knowledge-base-passages.repository';
import { queryTerms } from '../src/modules/knowledge-bases/retrieval/full-text-query';
import { makeBigPdf, prose, random, VOCABULARY } from './knowledge-base-corpus';
import { loadAverages, registerAdmin, withRedis } from './lib/bench-app';
import * as h from './lib/harness';

const HEADING = '## Knowledge bases: PDF to searchable, search latency';
const LAST_PAGE_PHRASE = 'zephyrine lanterns glow over the quartermaster';
const POLL_MS = 100;
const READY_BOUND_MS = 5 * 60_000;
const TEXT_FILES = 20;
const TEXT_FILE_CHARACTERS = 450_000;

interface Options {
  pdfMb: number;
  searches: number;
  write: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { pdfMb: 20, searches: 2_000, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--pdf-mb') options.pdfMb = Number(argv[++i]);
    else if (argv[i] === '--searches') options.searches = Number(argv[++i]);
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request; resolves with status, body and the ms to the last byte. */
function request(
  port: number,
  method: string,
  path: string,
  token: string,
  body?: { contentType: string; bytes: Buffer },
  reuse = false,
): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        // Polls run while extraction may hold the server's event loop past its keep-alive
        // timeout: a kept socket could then be closed under the next request. Only the
        // back-to-back search loop reuses one.
        agent: reuse ? agent : false,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body
            ? { 'content-type': body.contentType, 'content-length': body.bytes.length }
            : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            ms: performance.now() - started,
          }),
        );
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body?.bytes);
  });
}

/** A multipart/form-data body: one name field and the files. */
function multipart(
  name: string,
  files: Array<{ fileName: string; contentType: string; bytes: Buffer }>,
) {
  const boundary = `----bench${random(files.length)().toString(16).slice(2)}`;
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="knowledgeBaseName"\r\n\r\n${name}\r\n`,
    ),
  ];
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${file.fileName}"\r\n` +
          `content-type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(parts) };
}

async function createBase(
  port: number,
  token: string,
  name: string,
  files: Array<{ fileName: string; contentType: string; bytes: Buffer }>,
): Promise<{ id: string; ms: number }> {
  const response = await request(
    port,
    'POST',
    '/api/knowledgeBase/createKnowledgeBase',
    token,
    multipart(name, files),
  );
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${response.body}`);
  return { id: (JSON.parse(response.body) as { data: { _id: string } }).data._id, ms: response.ms };
}

const searchPath = (id: string, q: string) =>
  `/api/knowledgeBase/${id}/search?${new URLSearchParams({ q, limit: '5' }).toString()}`;

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

interface PdfResult {
  bytes: number;
  pages: number;
  characters: number;
  uploadMs: number;
  readyMs: number;
  polls: number;
  slowestPollMs: number;
  passages: number;
  peakRssMb: number;
}

async function pdfCase(port: number, pid: number, token: string, db: Client, mb: number) {
  const { pdf, pages, characters } = makeBigPdf({
    targetBytes: mb * 1_000_000,
    lastPageText: `On the last page: ${LAST_PAGE_PHRASE}.`,
    seed: 1,
  });
  const started = performance.now();
  const base = await createBase(port, token, 'Big manual', [
    { fileName: 'manual.pdf', contentType: 'application/pdf', bytes: pdf },
  ]);
  const query = searchPath(base.id, `"${LAST_PAGE_PHRASE}"`);
  let polls = 0;
  let slowest = 0;
  for (;;) {
    const response = await request(port, 'GET', query, token);
    polls += 1;
    slowest = Math.max(slowest, response.ms);
    if (response.status !== 200) throw new Error(`search: ${response.status} ${response.body}`);
    if ((JSON.parse(response.body) as { data: unknown[] }).data.length > 0) break;
    if (performance.now() - started > READY_BOUND_MS) {
      throw new Error(`not searchable after ${READY_BOUND_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const readyMs = performance.now() - started;
  const { rows } = await db.query<{ count: string }>(
    'SELECT count(*) FROM knowledge_base_passages WHERE knowledge_base_id = $1',
    [base.id],
  );
  const result: PdfResult = {
    bytes: pdf.length,
    pages,
    characters,
    uploadMs: base.ms,
    readyMs,
    polls,
    slowestPollMs: slowest,
    passages: Number(rows[0].count),
    peakRssMb: peakRssMb(pid),
  };
  console.log(JSON.stringify(result));
  return result;
}

type Kind =
  | 'top word'
  | 'mid word'
  | 'rare word'
  | 'two words'
  | 'phrase'
  | 'web syntax'
  | 'miss'
  | 'stop words';

const KINDS: Kind[] = [
  'top word',
  'mid word',
  'rare word',
  'two words',
  'phrase',
  'web syntax',
  'miss',
  'stop words',
];

/** Ranks 0–30 are stop words; the domain words follow. */
const FIRST_CONTENT_RANK = 31;

function queryOf(kind: Kind, next: () => number): string {
  const pick = (from: number, to: number) => VOCABULARY[from + Math.floor(next() * (to - from))];
  switch (kind) {
    case 'top word':
      return pick(FIRST_CONTENT_RANK, FIRST_CONTENT_RANK + 20);
    case 'mid word':
      return pick(200, 1_000);
    case 'rare word':
      return pick(5_000, 20_000);
    case 'two words':
      return `${pick(FIRST_CONTENT_RANK, 300)} ${pick(300, 3_000)}`;
    case 'phrase':
      return `"${pick(FIRST_CONTENT_RANK, 200)} ${pick(0, 30)} ${pick(FIRST_CONTENT_RANK, 200)}"`;
    case 'web syntax':
      return `${pick(100, 1_000)} or ${pick(100, 1_000)} -${pick(FIRST_CONTENT_RANK, 100)}`;
    case 'miss':
      return `xq${pick(5_000, 20_000)}zz`;
    case 'stop words':
      return `${pick(0, 30)} ${pick(0, 30)}`;
  }
}

interface SearchRow {
  kind: string;
  count: number;
  hitRate: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function latencyTable(unit: string, rows: SearchRow[]): string[] {
  return [
    `| query kind | ${unit} | with hits | p50 ms | p95 ms | p99 ms | max ms |`,
    '| ---------- | ------: | --------: | -----: | -----: | -----: | -----: |',
    ...rows.map(
      (row) =>
        `| ${row.kind} | ${row.count} | ${Math.round(row.hitRate * 100)} % | ` +
        `${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.p99.toFixed(1)} | ` +
        `${row.max.toFixed(1)} |`,
    ),
  ];
}

function summarise(kind: string, samples: Array<{ ms: number; hits: number }>): SearchRow {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    kind,
    count: samples.length,
    hitRate: samples.filter((sample) => sample.hits > 0).length / samples.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1],
  };
}

interface ExplainRow {
  kind: Kind;
  query: string;
  executionMs: number;
  sharedBuffers: number;
  passagesReadBy: string;
}

/** Execution time, buffers touched and how the passages were read, from EXPLAIN's text. */
function explainRow(kind: Kind, query: string, lines: string[]): ExplainRow {
  const text = lines.join('\n');
  const scan = /Seq Scan on knowledge_base_passages |Bitmap Index Scan on \w+/.exec(text);
  return {
    kind,
    query,
    executionMs: Number(/Execution Time: ([\d.]+)/.exec(text)?.[1] ?? NaN),
    sharedBuffers: Number(/Buffers: shared hit=(\d+)/.exec(text)?.[1] ?? 0),
    passagesReadBy: scan ? scan[0].trim() : 'no scan',
  };
}

async function searchCase(
  port: number,
  token: string,
  organizationId: string,
  db: Client,
  databaseUrl: string,
  searches: number,
) {
  const next = random(42);
  const files = Array.from({ length: TEXT_FILES }, (_, index) => ({
    fileName: `chapter-${index + 1}.txt`,
    contentType: 'text/plain',
    bytes: Buffer.from(prose(random(100 + index), TEXT_FILE_CHARACTERS)),
  }));
  const base = await createBase(port, token, 'Support handbook', files);
  const started = performance.now();
  for (;;) {
    const response = await request(port, 'GET', `/api/knowledgeBase/${base.id}/documents`, token);
    const docs = (JSON.parse(response.body) as { data: Array<{ status: string }> }).data;
    if (docs.every((doc) => doc.status === 'ready')) break;
    if (docs.some((doc) => doc.status === 'failed')) throw new Error(response.body);
    if (performance.now() - started > READY_BOUND_MS) throw new Error('text files not ready');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const indexMs = performance.now() - started;
  const { rows } = await db.query<{ base: string; all: string }>(
    `SELECT count(*) FILTER (WHERE knowledge_base_id = $1) AS base, count(*) AS all
       FROM knowledge_base_passages`,
    [base.id],
  );
  await db.query('ANALYZE knowledge_base_passages');
  // Warm-up: connection pool, plan cache, pages in shared buffers.
  for (let i = 0; i < 50; i += 1) {
    await request(
      port,
      'GET',
      searchPath(base.id, queryOf(KINDS[i % KINDS.length], next)),
      token,
      undefined,
      true,
    );
  }
  const samples = new Map<Kind, Array<{ ms: number; hits: number }>>(KINDS.map((k) => [k, []]));
  for (let i = 0; i < searches; i += 1) {
    const kind = KINDS[i % KINDS.length];
    const response = await request(
      port,
      'GET',
      searchPath(base.id, queryOf(kind, next)),
      token,
      undefined,
      true,
    );
    if (response.status !== 200) throw new Error(`search: ${response.status} ${response.body}`);
    const hits = (JSON.parse(response.body) as { data: unknown[] }).data.length;
    samples.get(kind)?.push({ ms: response.ms, hits });
  }
  const table = KINDS.map((kind) => summarise(kind, samples.get(kind) ?? []));
  table.push(summarise('all', [...samples.values()].flat()));
  // The full-text query alone: the product's repository on one connection of this process,
  // same queries (bench:retrieval measures the whole hybrid search).
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const repository = new KnowledgeBasePassagesRepository({
    db: drizzle(pool, { schema }),
  } as unknown as Database);
  const byWords = (q: string) => repository.rankByWords(organizationId, base.id, queryTerms(q), 5);
  const replay = random(42);
  for (let i = 0; i < 50; i += 1) {
    await byWords(queryOf(KINDS[i % KINDS.length], replay));
  }
  const sqlSamples = new Map<Kind, Array<{ ms: number; hits: number }>>(KINDS.map((k) => [k, []]));
  for (let i = 0; i < searches; i += 1) {
    const kind = KINDS[i % KINDS.length];
    const started = performance.now();
    const hits = await byWords(queryOf(kind, replay));
    sqlSamples.get(kind)?.push({ ms: performance.now() - started, hits: hits.length });
  }
  const sqlTable = KINDS.map((kind) => summarise(kind, sqlSamples.get(kind) ?? []));
  sqlTable.push(summarise('all', [...sqlSamples.values()].flat()));
  // The repository's own statement, EXPLAINed once per kind (the first query of each).
  const explainReplay = random(42);
  const explains: ExplainRow[] = [];
  let plan = '';
  for (const kind of KINDS) {
    const q = queryOf(kind, explainReplay);
    const statement = repository.rankByWordsStatement(organizationId, base.id, queryTerms(q), 5);
    const result = await drizzle(pool, { schema }).execute<{ 'QUERY PLAN': string }>(
      sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`,
    );
    const lines = result.rows.map((row) => row['QUERY PLAN']);
    explains.push(explainRow(kind, q, lines));
    if (kind === 'top word') plan = lines.join('\n');
  }
  await pool.end();
  console.log(plan);
  return {
    passages: Number(rows[0].base),
    allPassages: Number(rows[0].all),
    indexMs,
    table,
    sqlTable,
    explains,
    plan,
  };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const m = await h.machine();
  const load = loadAverages();
  await withRedis(async (redisUrl) => {
    const { server, db, database } = await h.startOnPostgres({
      REDIS_URL: redisUrl,
      STORAGE_DIR: h.newDataDir(),
    });
    const { token, organizationId } = await registerAdmin(server.port);
    const pid = server.child.pid ?? 0;
    process.on('exit', (code) => {
      if (code !== 0) console.error(server.output());
    });
    const pdf = await pdfCase(server.port, pid, token, db, options.pdfMb);
    const search = await searchCase(
      server.port,
      token,
      organizationId,
      db,
      database.url,
      options.searches,
    );
    const loadAfter = loadAverages();
    const ms = (value: number) => value.toFixed(1);
    const all = search.table[search.table.length - 1];
    const text = [
      HEADING,
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} on ${h.describeMachine(m)}, with ` +
        `\`npm run build && npm run bench:knowledge-base -- --pdf-mb ${options.pdfMb} ` +
        `--searches ${options.searches} --write\`. Load average (1, 5, 15 min) before: ${load}; ` +
        `after: ${loadAfter}.`,
      '',
      'The built server (role `all`: API and extraction job in one process) on a new PostgreSQL ' +
        'database, its own redis-server and a temp storage dir. Upload: one generated PDF ' +
        '(`bench/knowledge-base-corpus.ts`: Letter pages of seeded Zipf-distributed prose in ' +
        'Helvetica, every word placed on its own as a print driver writes it, uncompressed ' +
        'content streams), multipart through `POST /api/knowledgeBase/createKnowledgeBase`, then ' +
        'the phrase of its last page searched every 100 ms until found. Time to searchable: from ' +
        'the start of the upload to the first search that finds it.',
      '',
      '| PDF bytes | pages | text chars | passages | upload ms | time to searchable s | target | slowest poll ms | server peak RSS MB |',
      '| --------: | ----: | ---------: | -------: | --------: | -------------------: | ------ | --------------: | -----------------: |',
      `| ${pdf.bytes.toLocaleString('en-US')} | ${pdf.pages} | ${pdf.characters.toLocaleString('en-US')} | ` +
        `${pdf.passages.toLocaleString('en-US')} | ${Math.round(pdf.uploadMs)} | ` +
        `${(pdf.readyMs / 1000).toFixed(1)} | ≤ 30 s: **${pdf.readyMs <= 30_000 ? 'pass' : 'fail'}** | ` +
        `${Math.round(pdf.slowestPollMs)} | ${Math.round(pdf.peakRssMb)} |`,
      '',
      `Search: ${TEXT_FILES} text files of ~${TEXT_FILE_CHARACTERS / 1000} K characters in one ` +
        `base (${search.passages.toLocaleString('en-US')} passages; ` +
        `${search.allPassages.toLocaleString('en-US')} in the table with the PDF's; indexed in ` +
        `${(search.indexMs / 1000).toFixed(1)} s), then ${options.searches} sequential ` +
        '`GET /api/knowledgeBase/{id}/search?limit=5` over one keep-alive connection after 50 ' +
        'warm-up requests, cycling through the kinds below with seeded words: a top word is in ' +
        'most passages (the costly case for ranking), a rare one in a few.',
      '',
      ...latencyTable('requests', search.table),
      '',
      `Target p99 ≤ 20 ms over HTTP, all queries: **${all.p99 <= 20 ? 'pass' : 'fail'}** ` +
        `(${ms(all.p99)} ms).`,
      '',
      'The query alone: the same queries (same seed) through `KnowledgeBasePassagesRepository' +
        '.search` in the benchmark process on one connection to the same database, so without ' +
        'HTTP, authentication and the server process:',
      '',
      ...latencyTable('queries', search.sqlTable),
      '',
      'The statement of `KnowledgeBasePassagesRepository.rankByWords` for the first query of each ' +
        'kind, `EXPLAIN (ANALYZE, BUFFERS)` once after the runs above:',
      '',
      '| query kind | query | execution ms | shared buffers | passages read by |',
      '| ---------- | ----- | -----------: | -------------: | ---------------- |',
      ...search.explains.map(
        (row) =>
          `| ${row.kind} | \`${row.query}\` | ${row.executionMs.toFixed(2)} | ` +
          `${row.sharedBuffers} | ${row.passagesReadBy} |`,
      ),
      '',
      'The plan of the top-word query above (every match ranked):',
      '',
      '```',
      search.plan,
      '```',
      '',
    ].join('\n');
    console.log(text);
    if (options.write) await h.writeSection(HEADING, m, text);
  }).finally(() => agent.destroy());
}

h.run(main);
