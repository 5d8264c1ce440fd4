import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { Database, rowsOf } from '../../src/database';
import { knowledgeBasePassages } from '../../src/modules/knowledge-bases/knowledge-bases.schema';
import { LOCAL_EMBEDDING_MODEL } from '../../src/modules/knowledge-bases/retrieval/local-embedding';
import { EmbeddingsFake } from '../fakes';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import {
  knowledgeBaseApi,
  type KnowledgeBaseApi,
  type UploadFiles,
} from '../support/knowledge-bases';
import { LogCapture } from '../support/log-capture';
import { startTestApp, type TestApp } from '../support/test-app';

// Issue #31 finding 8: a customer's question finds the passage that answers it — any of its
// words (in the base's language), and its meaning by embeddings (an endpoint's, else offline) —
// and an embeddings endpoint that fails never fails indexing or search.
jest.setTimeout(60_000);

const CORPUS = join(__dirname, '../fixtures/retrieval/corpus');
const corpus = (...names: string[]): UploadFiles =>
  names.map((name) => [name, readFileSync(join(CORPUS, name))]);
const SHOP = corpus('hours-and-locations.md', 'shipping.md', 'returns-and-refunds.md', 'faq.md');

const SUNDAY = 'What time do you open on Sunday?';
const API_KEY = 'sk-embeddings-secret-0123456789';

interface Hit {
  fileName: string;
  text: string;
  score: number;
}

/** A base of the shop's documents, once they are searchable. */
async function shopBase(api: KnowledgeBaseApi, fields: Record<string, string> = {}, files = SHOP) {
  const created = await api
    .create({ knowledgeBaseName: 'Northwind', ...fields }, files)
    .expect(201);
  const id = created.body.data._id as string;
  const documents = await api.settled(id);
  expect(documents.map((doc) => doc.status)).toEqual(files.map(() => 'ready'));
  return { id, body: created.body.data as { language: string } };
}

async function search(api: KnowledgeBaseApi, id: string, q: string): Promise<Hit[]> {
  return (await api.search(id, q).expect(200)).body.data as Hit[];
}

/** The embedding model of each passage of the base. */
async function passageModels(t: TestApp, knowledgeBaseId: string): Promise<string[]> {
  const rows = await t.app
    .get(Database)
    .db.select({
      model: knowledgeBasePassages.embeddingModel,
      embedding: knowledgeBasePassages.embedding,
    })
    .from(knowledgeBasePassages)
    .where(eq(knowledgeBasePassages.knowledgeBaseId, knowledgeBaseId));
  for (const row of rows) expect(row.embedding?.length ?? 0).toBeGreaterThan(0);
  return [...new Set(rows.map((row) => row.model ?? 'none'))];
}

// First: the app that captures logs (Nest's static logger is the first app's to set up).
describe('knowledge base retrieval with an embeddings endpoint', () => {
  let t: TestApp;
  let fake: EmbeddingsFake;
  let admin: RegisteredAdmin;
  let api: KnowledgeBaseApi;
  let shop: string;
  const logs = new LogCapture();

  beforeAll(async () => {
    fake = await EmbeddingsFake.start();
    t = await startTestApp({
      logStream: logs,
      env: {
        LOG_LEVEL: 'warn',
        EMBEDDINGS_API_URL: fake.url,
        EMBEDDINGS_API_KEY: API_KEY,
        EMBEDDINGS_MODEL: 'fake-embedder',
        EMBEDDINGS_QUERY_TIMEOUT_MS: '300',
        EMBEDDINGS_TIMEOUT_MS: '1000',
        // Each test meets its own fault: the circuit breaker stays closed.
        ENGINE_CIRCUIT_FAILURES: '100',
      },
    });
    admin = await registerOrganization(t.http);
    api = knowledgeBaseApi(t.http, admin.token);
    shop = (await shopBase(api)).id;
  });
  afterEach(() => {
    fake.faults.clear();
    fake.answer = 'embeddings';
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  it('embeds passages and questions through the endpoint, with its key and model', async () => {
    expect(await passageModels(t, shop)).toEqual(['api:fake-embedder']);
    expect(fake.inputs.some((text) => text.includes('Sunday 10–4'))).toBe(true);
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(fake.requests[0].model).toBe('fake-embedder');
    const [first] = await search(api, shop, SUNDAY);
    expect(first.text).toContain('Sunday 10–4');
    expect(fake.inputs).toContain(SUNDAY);
  });

  it.each([
    ['is down (503)', () => fake.faults.always({ kind: 'status', status: 503 })],
    [
      'rate-limits (429)',
      () => fake.faults.always({ kind: 'status', status: 429, retryAfterSeconds: 30 }),
    ],
    [
      'is slower than EMBEDDINGS_QUERY_TIMEOUT_MS',
      () => fake.faults.always({ kind: 'latency', ms: 1_500 }),
    ],
    ['never answers', () => fake.faults.always({ kind: 'hang' })],
    ['answers garbage', () => (fake.answer = 'garbage')],
  ])('answers by full text when the endpoint %s', async (_case, fault) => {
    fault();
    const question = `${SUNDAY} (${_case})`;
    const started = performance.now();
    const hits = await search(api, shop, question);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(hits[0].text).toContain('Sunday 10–4');
    // It was asked, and failed.
    expect(fake.inputs).toContain(question);
  });

  it('indexes a document offline when the endpoint fails, and says so without the key', async () => {
    fake.faults.always({ kind: 'status', status: 500 });
    const { id } = await shopBase(api, {}, corpus('hours-and-locations.md'));
    expect(await passageModels(t, id)).toEqual([LOCAL_EMBEDDING_MODEL]);
    // Tried three times (timeouts, 429 and 5xx are retried), then offline.
    expect(
      fake.requests.filter((request) => request.input.some((text) => text.includes('Sunday 10–4'))),
    ).toHaveLength(1 + 3);
    const [first] = await search(api, id, SUNDAY);
    expect(first.text).toContain('Sunday 10–4');
    const warnings = logs.lines.filter((line) =>
      String(line.msg).startsWith('Embeddings endpoint failed'),
    );
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings).toContainEqual(expect.objectContaining({ status: 500, kind: 'refused' }));
    expect(logs.text).not.toContain(API_KEY);
  });
});

describe('knowledge base retrieval with the offline embedding (no endpoint)', () => {
  let t: TestApp;
  let admin: RegisteredAdmin;
  let api: KnowledgeBaseApi;
  let shop: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await registerOrganization(t.http);
    api = knowledgeBaseApi(t.http, admin.token);
    shop = (await shopBase(api)).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds "Opening hours: Sunday 10–4" for "What time do you open on Sunday?"', async () => {
    const [first] = await search(api, shop, SUNDAY);
    expect(first).toMatchObject({ fileName: 'hours-and-locations.md' });
    expect(first.text).toContain('Opening hours: Monday to Friday 9–7, Saturday 9–6, Sunday 10–4.');
    expect(first.score).toBeGreaterThan(0);
  });

  it('embeds the passages offline and finds a misspelt question no word of which matches, and nothing for a greeting', async () => {
    expect(await passageModels(t, shop)).toEqual([LOCAL_EMBEDDING_MODEL]);
    // Neither "xpress" nor "shiping" is a word of any passage: only the embedding finds it.
    const hits = await search(api, shop, 'xpress shiping');
    expect(hits[0]).toMatchObject({ fileName: 'shipping.md' });
    expect(hits[0].text).toContain('Express shipping costs $19.95');
    // Yet a message unrelated to every passage finds nothing (the offline similarity floor).
    expect(await search(api, shop, 'hi')).toEqual([]);
  });

  it('indexes a French base in French, answers its language, and re-indexes when it changes', async () => {
    const { id, body } = await shopBase(api, { language: 'french' }, corpus('faq-fr.md'));
    expect(body.language).toBe('french');
    expect(
      (await t.http.get(`/api/knowledgeBase/${id}`).set('Authorization', `Bearer ${admin.token}`))
        .body.data.language,
    ).toBe('french');
    const [first] = await search(api, id, "Quelles sont vos heures d'ouverture le dimanche ?");
    expect(first.text).toContain('le dimanche de 10 h à 16 h');
    // French stemming: "remboursements" finds "remboursement"; French stop words are not words.
    const words = async () =>
      rowsOf<{ words: string }>(
        await t.app.get(Database).db.execute(sql`
          SELECT string_agg(DISTINCT language::text || ':' || search::text, '') AS words
          FROM knowledge_base_passages WHERE knowledge_base_id = ${id}`),
      )[0].words;
    expect(await words()).toMatch(/^french:.*'rembours'/);
    expect(await words()).not.toMatch(/'les'/);

    await api.update(id, { language: 'simple' }).expect(200);
    expect(await words()).toMatch(/^simple:.*'les'/);
    const [again] = await search(api, id, 'livraison express');
    expect(again.text).toContain('La livraison express coûte 19,95 $');
  });

  it.each([
    ['an unknown language', { language: 'klingon' }],
    ['a language name with SQL', { language: "english'::regconfig); DROP TABLE x; --" }],
  ])('refuses %s with 400 and changes nothing', async (_case, fields) => {
    const response = await api.create({ knowledgeBaseName: 'Bad', ...fields }).expect(400);
    expect(response.body.errors).toEqual([
      {
        field: 'language',
        message: expect.stringMatching(/^language must be one of: simple, arabic/),
      },
    ]);
    await api.update(shop, fields).expect(400);
    const [{ language }] = rowsOf<{ language: string }>(
      await t.app
        .get(Database)
        .db.execute(sql`SELECT language FROM knowledge_bases WHERE id = ${shop}`),
    );
    expect(language).toBe('english');
  });
});
