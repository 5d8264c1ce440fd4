import { sql } from 'drizzle-orm';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { newObjectId } from '../../src/common/object-id';
import { Database, rowsOf } from '../../src/database';
import { KnowledgeBasePassagesRepository } from '../../src/modules/knowledge-bases/knowledge-base-passages.repository';
import { knowledgeBaseDocuments } from '../../src/modules/knowledge-bases/knowledge-bases.schema';
import { queryTerms } from '../../src/modules/knowledge-bases/retrieval/full-text-query';
import { PassageEmbedder } from '../../src/modules/knowledge-bases/retrieval/passage-embedder';
import { DRIVER_APPS, type DriverApp } from '../support/driver-apps';
import { registerOrganization, type RegisteredAdmin } from '../support/factories';
import { knowledgeBaseApi, type KnowledgeBaseApi } from '../support/knowledge-bases';

// Issue #13: search over a big base reads its own matches through the (base, words) index, on
// both drivers, and keeps finding the passage that holds the words first. Issue #31: any word of
// the question finds a passage (not every one), ranked by how rare the words it holds are.
jest.setTimeout(60_000);

/**
 * Filler passages that all hold the common word, more in our base than COMMON_TERM_PASSAGES:
 * given the word, the planner would find enough of them sooner by scanning the table than by
 * the index.
 */
const OTHER_BASE_PASSAGES = 2_000;
const OUR_FILLER_PASSAGES = 1_500;
const COMMON = 'lantern';

const filler = (index: number) =>
  `Passage ${index} of the handbook: the ${COMMON} room keeps spare chairs and folders.`;

/** One document of the base with these passages, written as the extraction job writes them. */
async function seedDocument(
  app: NestExpressApplication,
  admin: RegisteredAdmin,
  knowledgeBaseId: string,
  fileName: string,
  texts: string[],
): Promise<void> {
  const database = app.get(Database);
  const id = newObjectId();
  const embeddings = await app.get(PassageEmbedder).embedPassages(texts);
  await database.background(async () => {
    await database.db.insert(knowledgeBaseDocuments).values({
      id,
      organizationId: admin.organizationId,
      knowledgeBaseId,
      fileName,
      storageKey: `seed/${id}`,
      size: 1,
      contentType: 'text/plain',
      status: 'ready',
    });
    await app.get(KnowledgeBasePassagesRepository).replace(
      admin.organizationId,
      { id, knowledgeBaseId },
      texts.map((text, index) => ({ text, embedding: embeddings[index] })),
      'english',
    );
  });
}

describe.each(DRIVER_APPS)('knowledge base search on %s', (_driver, start) => {
  let h: DriverApp;
  let admin: RegisteredAdmin;
  let api: KnowledgeBaseApi;
  let ours: string;

  beforeAll(async () => {
    h = await start();
    admin = await registerOrganization(h.http);
    api = knowledgeBaseApi(h.http, admin.token);
    const base = async (name: string): Promise<string> =>
      (await api.create({ knowledgeBaseName: name }).expect(201)).body.data._id as string;
    // The other base is written first: its rows lie ahead of ours in the table.
    const other = await base('Other handbook');
    ours = await base('Our handbook');
    await seedDocument(
      h.app,
      admin,
      other,
      'other.txt',
      Array.from({ length: OTHER_BASE_PASSAGES }, (_, i) => `${filler(i)} Pelican refunds.`),
    );
    await seedDocument(h.app, admin, ours, 'guide.txt', [
      `Refill the ${COMMON}: each ${COMMON} takes oil, a ${COMMON} wick and a match.`,
      'Refunds are paid within thirty days by the billing desk.',
      'Pelican couriers carry the parcels to the depot.',
    ]);
    await seedDocument(
      h.app,
      admin,
      ours,
      'filler.txt',
      Array.from({ length: OUR_FILLER_PASSAGES }, (_, i) => filler(i)),
    );
    await h.app.get(Database).db.execute(sql`ANALYZE knowledge_base_passages`);
  });
  afterAll(async () => {
    await h?.close();
  });

  const found = async (q: string) =>
    (await api.search(ours, q).expect(200)).body.data as Array<{ fileName: string; text: string }>;

  it('ranks the passage holding the word most often first, among its own base’s passages', async () => {
    const hits = await found(COMMON);
    expect(hits).toHaveLength(5);
    expect(hits[0]).toMatchObject({
      fileName: 'guide.txt',
      text: expect.stringMatching(/^Refill/),
    });
    expect(hits.slice(1).map((hit) => hit.fileName)).toEqual(Array(4).fill('filler.txt'));
  });

  it('finds the passages holding any word of the question, the rarest words first, from this base only', async () => {
    const texts = async (q: string) => (await found(q)).map((hit) => hit.text.split(' ')[0]);
    // Every passage of ours holds "the"; "thirty" is in one, "couriers" in another.
    expect((await texts('thirty couriers')).slice(0, 2).sort()).toEqual(['Pelican', 'Refunds']);
    // The other base's 2,000 passages also hold the word: none of them comes back.
    const pelican = await found('Pelican');
    expect(pelican[0].text).toMatch(/^Pelican couriers/);
    expect(pelican.map((hit) => hit.fileName)).not.toContain('other.txt');
    // Quotes and signs are punctuation: "-pelican" does not exclude, it looks for pelican too.
    expect((await texts('refunds -pelican')).slice(0, 2).sort()).toEqual(['Pelican', 'Refunds']);
  });

  it('reads the matches through the (base, words) index, never a scan of the table', async () => {
    const statement = h.app
      .get(KnowledgeBasePassagesRepository)
      .rankByWordsStatement(admin.organizationId, ours, queryTerms(COMMON), 5);
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await h.app.get(Database).db.execute(sql`EXPLAIN ${statement}`),
    )
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).not.toMatch(/Seq Scan on knowledge_base_passages/);
    expect(plan).toMatch(/Bitmap Index Scan on knowledge_base_passages_search_idx/);
    expect(plan).toMatch(/Index Cond: \(+knowledge_base_id\)::text = .+ AND \(search @@/);
    // The common word's passages are counted and ranked up to a bound, not all read.
    expect(plan).toMatch(/Limit/);
  });
});
