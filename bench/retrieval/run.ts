/**
 * Retrieval (issue #31 finding 8): does search find the passage that answers a customer, and how
 * fast is it over big bases.
 *
 * 1. Quality: the labelled set of test/fixtures/retrieval (a bike shop's documents, questions as
 *    customers write them, each with the passages that answer it) indexed in one base; recall@3
 *    (a right passage among the first three) and MRR@10 of: the old full text (every word
 *    required: websearch_to_tsquery, ts_rank over the first 1,000 matches), the new full text
 *    (any word, ts_rank_cd over every match), the offline embedding alone, and hybrid (both,
 *    fused by reciprocal rank: what agents get). No embeddings endpoint: the offline embedding.
 * 2. Latency: the same corpus in bases padded with synthetic filler passages (seeded Zipf prose
 *    whose top words are the domain's: order, refund, shipping…) to 10,000 and 100,000 passages;
 *    the questions searched in turn, hybrid search in this process, p50/p95/p99, and its parts.
 *
 *   npm run bench:retrieval -- [--sizes 10000,100000] [--searches 500] [--pglite] [--write]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { AppConfig } from '../../src/config';
import { Database, rowsOf } from '../../src/database';
import { openDatabase } from '../../src/database/open-database';
import { KnowledgeBasePassagesRepository } from '../../src/modules/knowledge-bases/knowledge-base-passages.repository';
import {
  HybridPassageRetriever,
  OFFLINE_MIN_SIMILARITY,
  RANKING_DEPTH,
  VECTOR_CANDIDATES,
} from '../../src/modules/knowledge-bases/passage-retriever';
import { queryTerms } from '../../src/modules/knowledge-bases/retrieval/full-text-query';
import { PassageEmbedder } from '../../src/modules/knowledge-bases/retrieval/passage-embedder';
import { rankBySimilarity } from '../../src/modules/knowledge-bases/retrieval/vector-ranking';
import { prose, random } from '../knowledge-base-corpus';
import { loadAverages } from '../lib/bench-app';
import * as h from '../lib/harness';
import {
  addDocument,
  answers,
  type BenchBase,
  corpusPassages,
  createBase,
  loadRetrievalSet,
  type Question,
  type RetrievalSet,
} from './fixture';

const HEADING = '## Knowledge bases: retrieval quality and hybrid search latency';
const FILLER_CHARACTERS = 900;
const FILLER_PER_DOCUMENT = 2_000;

interface Options {
  sizes: number[];
  searches: number;
  pglite: boolean;
  write: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { sizes: [10_000, 100_000], searches: 500, pglite: false, write: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--sizes') options.sizes = argv[++i].split(',').map(Number);
    else if (argv[i] === '--searches') options.searches = Number(argv[++i]);
    else if (argv[i] === '--pglite') options.pglite = true;
    else if (argv[i] === '--write') options.write = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return options;
}

interface Tools {
  database: Database;
  passages: KnowledgeBasePassagesRepository;
  embedder: PassageEmbedder;
  retriever: HybridPassageRetriever;
  close(): Promise<void>;
}

const OFFLINE_CONFIG = {
  embeddings: {
    apiUrl: undefined,
    apiKey: undefined,
    model: 'unused',
    timeoutMs: 30_000,
    queryTimeoutMs: 1_500,
  },
  engineCircuit: { failures: 3, coolDownMs: 30_000 },
} as const;

async function open(driver: 'postgres' | 'pglite'): Promise<Tools> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-retrieval-'));
  const url = driver === 'postgres' ? (await h.createDatabase()).url : undefined;
  const config = {
    db: { url, pgliteDir: dataDir, statementTimeoutMs: 0 },
    process: { role: 'worker' },
  } as unknown as AppConfig;
  const connection = await openDatabase(config, { log: () => undefined, error: console.error });
  const database = new Database(connection.db);
  const passages = new KnowledgeBasePassagesRepository(database);
  const embedder = new PassageEmbedder(OFFLINE_CONFIG as unknown as AppConfig);
  return {
    database,
    passages,
    embedder,
    retriever: new HybridPassageRetriever(passages, embedder),
    close: async () => {
      await connection.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Found = Array<{ fileName: string; text: string }>;

/** The passages nearest to the question's offline embedding, as the retriever ranks them. */
async function offlineNearest(tools: Tools, base: BenchBase, q: string, depth: number) {
  const [embedding] = await tools.embedder.embedQuery(q);
  const candidates = await tools.passages.nearestBySignature(
    base.organizationId,
    base.knowledgeBaseId,
    embedding,
    VECTOR_CANDIDATES,
  );
  return rankBySimilarity(embedding.vector, candidates, {
    depth,
    minSimilarity: OFFLINE_MIN_SIMILARITY,
  });
}
type Method = (question: string) => Promise<Found>;

/** Each way of searching a base, as a function of the question. */
function methods(tools: Tools, base: BenchBase): Record<string, Method> {
  const { organizationId, knowledgeBaseId } = base;
  const byIds = async (ids: number[]): Promise<Found> => {
    const found = await tools.passages.hits(organizationId, ids);
    return ids.flatMap((id) => found.get(id) ?? []);
  };
  return {
    'full text, every word (before)': async (q) => {
      // The statement of the code this issue was filed on.
      const rows = rowsOf<{ id: number }>(
        await tools.database.db.execute(sql`
          SELECT id FROM (
            SELECT id, document_id, position,
                   ts_rank(search, (SELECT websearch_to_tsquery('english', ${q}))) AS score
            FROM knowledge_base_passages
            WHERE organization_id = ${organizationId} AND knowledge_base_id = ${knowledgeBaseId}
              AND search @@ (SELECT websearch_to_tsquery('english', ${q}))
            LIMIT 1000) matches
          ORDER BY score DESC, document_id, position LIMIT 10`),
      );
      return byIds(rows.map((row) => Number(row.id)));
    },
    'full text, any word': async (q) =>
      byIds(await tools.passages.rankByWords(organizationId, knowledgeBaseId, queryTerms(q), 10)),
    'offline embedding alone': async (q) => byIds(await offlineNearest(tools, base, q, 10)),
    'hybrid (what agents get)': (q) =>
      tools.retriever.search(organizationId, knowledgeBaseId, q, 10),
  };
}

interface QualityRow {
  method: string;
  recallAt3: number;
  mrr: number;
  byKind: Map<string, number>;
  offTopicWithHits: number;
  misses: string[];
}

async function quality(tools: Tools, set: RetrievalSet, base: BenchBase): Promise<QualityRow[]> {
  const rows: QualityRow[] = [];
  for (const [method, search] of Object.entries(methods(tools, base))) {
    let found3 = 0;
    let reciprocal = 0;
    const kinds = new Map<string, { total: number; found: number }>();
    const misses: string[] = [];
    for (const question of set.questions) {
      const hits = await search(question.q);
      const place = hits.findIndex((hit) => answers(question, hit)) + 1;
      const kind = kinds.get(question.kind) ?? { total: 0, found: 0 };
      kind.total += 1;
      if (place >= 1 && place <= 3) {
        found3 += 1;
        kind.found += 1;
      } else misses.push(question.id);
      if (place >= 1) reciprocal += 1 / place;
      kinds.set(question.kind, kind);
    }
    let offTopicWithHits = 0;
    for (const message of set.offTopic)
      if ((await search(message)).length > 0) offTopicWithHits += 1;
    rows.push({
      method,
      recallAt3: found3 / set.questions.length,
      mrr: reciprocal / set.questions.length,
      byKind: new Map([...kinds].map(([kind, { total, found }]) => [kind, found / total])),
      offTopicWithHits,
      misses,
    });
  }
  return rows;
}

interface LatencyRow {
  driver: string;
  passages: number;
  part: string;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** The corpus padded with filler to `size` passages in a new base; the questions searched. */
async function latency(
  tools: Tools,
  driver: string,
  set: RetrievalSet,
  size: number,
  searches: number,
): Promise<{ rows: LatencyRow[]; indexSeconds: number; recallAt3: number }> {
  const base = await createBase(tools.database);
  const started = performance.now();
  let count = 0;
  for (const [file, texts] of corpusPassages(set)) {
    await addDocument(tools, base, file, texts);
    count += texts.length;
  }
  const next = random(size);
  for (let document = 0; count < size; document += 1) {
    const texts: string[] = [];
    while (texts.length < FILLER_PER_DOCUMENT && count + texts.length < size) {
      texts.push(prose(next, FILLER_CHARACTERS).slice(0, 1_000));
    }
    await addDocument(tools, base, `filler-${document}.txt`, texts);
    count += texts.length;
    process.stdout.write(`\r${driver} ${size}: ${count} passages`);
  }
  process.stdout.write('\n');
  await tools.database.db.execute(sql`VACUUM ANALYZE knowledge_base_passages`);
  const indexSeconds = (performance.now() - started) / 1000;
  const { organizationId, knowledgeBaseId } = base;
  const parts: Record<string, (q: string) => Promise<unknown>> = {
    'hybrid search (all of it)': (q) =>
      tools.retriever.search(organizationId, knowledgeBaseId, q, 5),
    'full text, any word': (q) =>
      tools.passages.rankByWords(organizationId, knowledgeBaseId, queryTerms(q), RANKING_DEPTH),
    'nearest by offline embedding': (q) => offlineNearest(tools, base, q, RANKING_DEPTH),
  };
  const rows: LatencyRow[] = [];
  const questions: Question[] = set.questions;
  for (const [part, run] of Object.entries(parts)) {
    for (let i = 0; i < 20; i += 1) await run(questions[i % questions.length].q);
    const samples: number[] = [];
    for (let i = 0; i < searches; i += 1) {
      const at = performance.now();
      await run(questions[i % questions.length].q);
      samples.push(performance.now() - at);
    }
    rows.push({ driver, passages: count, part, ...h.percentiles(samples) });
  }
  // Does the filler drown the answers? The same quality measure on the big base.
  let found = 0;
  for (const question of questions) {
    const hits = await tools.retriever.search(organizationId, knowledgeBaseId, question.q, 3);
    if (hits.some((hit) => answers(question, hit))) found += 1;
  }
  return { rows, indexSeconds, recallAt3: found / questions.length };
}

const pct = (value: number) => `${(value * 100).toFixed(1)} %`;

function report(
  options: Options,
  set: RetrievalSet,
  passages: number,
  qualityRows: QualityRow[],
  latencies: Array<{ rows: LatencyRow[]; indexSeconds: number; recallAt3: number }>,
  load: { before: string; after: string },
): string {
  const kinds = [...new Set(set.questions.map((q) => q.kind))];
  const kindCounts = kinds.map(
    (kind) => `${kind} ${set.questions.filter((q) => q.kind === kind).length}`,
  );
  return [
    HEADING,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:retrieval -- --sizes ${options.sizes.join(',')} --searches ${options.searches}${options.pglite ? ' --pglite' : ''} --write\`. Load average (1, 5, 15 min) before: ${load.before}; after: ${load.after}.`,
    '',
    `Quality: the ${set.questions.length} questions of \`test/fixtures/retrieval/questions.json\` (${kindCounts.join(', ')}) over the ${set.documents.size} documents of \`corpus/\` (${passages} passages) in one \`english\` base, on PostgreSQL, with no embeddings endpoint (the offline embedding). recall@3: a passage that answers among the first three; MRR over the first ten. Off-topic: of the ${set.offTopic.length} messages the base has no answer for ("hi", "thanks!", …), how many found anything.`,
    '',
    `| search | recall@3 | MRR | ${kinds.join(' | ')} | off-topic with hits | missed at 3 |`,
    `| ------ | -------: | --: | ${kinds.map(() => '---:').join(' | ')} | ---: | --- |`,
    ...qualityRows.map(
      (row) =>
        `| ${row.method} | **${row.recallAt3.toFixed(3)}** | ${row.mrr.toFixed(3)} | ${kinds
          .map((kind) => pct(row.byKind.get(kind) ?? 0))
          .join(
            ' | ',
          )} | ${row.offTopicWithHits} / ${set.offTopic.length} | ${row.misses.join(' ') || '–'} |`,
    ),
    '',
    `Latency: the corpus plus seeded filler passages (${FILLER_CHARACTERS} characters of Zipf prose each) in one base, vacuumed and analysed; the ${set.questions.length} questions searched in turn (${options.searches} searches per row after 20 warm-up), in this process on one connection, limit 5. Each part alone below the whole: the full-text ranking, and the offline embedding of the question with its nearest passages (the ${VECTOR_CANDIDATES} nearest by signature, scored exactly).`,
    '',
    '| driver | passages | part | p50 ms | p95 ms | p99 ms | max ms |',
    '| ------ | -------: | ---- | -----: | -----: | -----: | -----: |',
    ...latencies.flatMap(({ rows }) =>
      rows.map(
        (row) =>
          `| ${row.driver} | ${row.passages.toLocaleString('en-US')} | ${row.part} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.max.toFixed(1)} |`,
      ),
    ),
    '',
    '| driver | passages | indexed in (embed + write + VACUUM ANALYZE) s | hybrid recall@3 among the filler |',
    '| ------ | -------: | --------------------------------------------: | -------------------------------: |',
    ...latencies.map(
      ({ rows, indexSeconds, recallAt3 }) =>
        `| ${rows[0].driver} | ${rows[0].passages.toLocaleString('en-US')} | ${indexSeconds.toFixed(0)} | ${recallAt3.toFixed(3)} |`,
    ),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const machine = await h.machine();
  const before = loadAverages();
  const set = await loadRetrievalSet();
  const tools = await open('postgres');
  const latencies: Array<{ rows: LatencyRow[]; indexSeconds: number; recallAt3: number }> = [];
  let qualityRows: QualityRow[];
  let passages = 0;
  try {
    const base = await createBase(tools.database);
    for (const [file, texts] of corpusPassages(set)) {
      await addDocument(tools, base, file, texts);
      passages += texts.length;
    }
    qualityRows = await quality(tools, set, base);
    for (const row of qualityRows) {
      console.log(
        `${row.method}: recall@3 ${row.recallAt3.toFixed(3)} MRR ${row.mrr.toFixed(3)} missed ${row.misses.join(' ')}`,
      );
    }
    for (const size of options.sizes) {
      latencies.push(await latency(tools, 'PostgreSQL', set, size, options.searches));
      console.log(latencies.at(-1));
    }
  } finally {
    await tools.close();
  }
  if (options.pglite) {
    const embedded = await open('pglite');
    try {
      for (const size of options.sizes) {
        latencies.push(await latency(embedded, 'PGlite', set, size, options.searches));
        console.log(latencies.at(-1));
      }
    } finally {
      await embedded.close();
    }
  }
  const text = report(options, set, passages, qualityRows, latencies, {
    before,
    after: loadAverages(),
  });
  console.log(text);
  if (options.write)
    await h.writeSection(HEADING, machine, `${text}\n${h.describeMachine(machine)}.\n`);
}

h.run(main);
