import type { KnowledgeBasePassagesRepository } from './knowledge-base-passages.repository';
import { CONTEXT_WEIGHT, HybridPassageRetriever, searchKnowledgeBases } from './passage-retriever';
import { RRF_K } from './retrieval/rank-fusion';
import type { PassageEmbedder } from './retrieval/passage-embedder';

/** Full text finds, per question, the passages listed; no embedding finds anything. */
function retrieverFinding(byText: Record<string, number[]>) {
  const passages = {
    rankByWords: jest.fn((_org: string, _base: string, terms: string[]) =>
      Promise.resolve(byText[terms.join(' ')] ?? []),
    ),
    nearestBySignature: jest.fn(() => Promise.resolve([])),
    hits: jest.fn((_org: string, ids: number[]) =>
      Promise.resolve(new Map(ids.map((id) => [id, { fileName: 'f.txt', text: `passage ${id}` }]))),
    ),
  };
  const embedder = {
    embedQuery: jest.fn(() =>
      Promise.resolve([{ model: 'offline-hash-v1', vector: new Float32Array(2), signature: '00' }]),
    ),
  };
  return new HybridPassageRetriever(
    passages as unknown as KnowledgeBasePassagesRepository,
    embedder as unknown as PassageEmbedder,
  );
}

describe('HybridPassageRetriever', () => {
  it('ranks by the question, and by earlier messages given as context at CONTEXT_WEIGHT', async () => {
    const retriever = retrieverFinding({
      "'and' 'on' 'weekends':*": [2, 3],
      "'open' 'sunday':*": [1, 2],
    });
    const alone = await retriever.search('org', 'kb', 'and on weekends?', 5);
    expect(alone.map((hit) => hit.text)).toEqual(['passage 2', 'passage 3']);
    const withContext = await retriever.search('org', 'kb', 'and on weekends?', 5, {
      context: ['open sunday'],
    });
    // Passage 2 is found by both; 1 by the context only, below 3 found by the question.
    expect(withContext.map((hit) => hit.text)).toEqual(['passage 2', 'passage 3', 'passage 1']);
    expect(withContext[0].score).toBeCloseTo(1 / (RRF_K + 1) + CONTEXT_WEIGHT / (RRF_K + 2), 12);
    expect(withContext[2].score).toBeCloseTo(CONTEXT_WEIGHT / (RRF_K + 1), 12);
  });

  it('merges several bases by fused score', async () => {
    const retriever = retrieverFinding({ "'refund':*": [7, 8] });
    const hits = await searchKnowledgeBases(retriever, 'org', ['a', 'b'], 'refund', 3);
    expect(hits).toHaveLength(3);
    expect(hits[0].score).toBeGreaterThanOrEqual(hits[2].score);
  });
});
