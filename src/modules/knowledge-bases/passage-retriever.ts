import { Injectable } from '@nestjs/common';
import {
  KnowledgeBasePassagesRepository,
  type PassageHit,
} from './knowledge-base-passages.repository';
import { queryTerms } from './retrieval/full-text-query';
import { LOCAL_EMBEDDING_MODEL } from './retrieval/local-embedding';
import { PassageEmbedder } from './retrieval/passage-embedder';
import { fuseRankings, type Ranking } from './retrieval/rank-fusion';
import { rankBySimilarity } from './retrieval/vector-ranking';

/** What a search may add to its question. */
export interface PassageSearchOptions {
  /**
   * Earlier messages of the same customer turn or conversation ("and on weekends?" after "when
   * do you open?"): searched too, their rankings counting CONTEXT_WEIGHT of the question's.
   */
  context?: readonly string[];
  /**
   * The longest wait for the question's embedding from the endpoint, below
   * EMBEDDINGS_QUERY_TIMEOUT_MS (a live call's turn cannot wait as long as a text reply).
   */
  embeddingTimeoutMs?: number;
}

/** How agents find the passages of a knowledge base that answer a question. */
export abstract class PassageRetriever {
  abstract search(
    organizationId: string,
    knowledgeBaseId: string,
    query: string,
    limit: number,
    options?: PassageSearchOptions,
  ): Promise<PassageHit[]>;
}

/** How deep each ranking goes before fusion (the route answers at most 50). */
export const RANKING_DEPTH = 50;
/** Passages nearest by signature that are scored exactly, per embedding model. */
export const VECTOR_CANDIDATES = 100;
/** How much a context message's rankings count beside the question's. */
export const CONTEXT_WEIGHT = 0.5;
/**
 * The lowest cosine similarity at which the offline embedding calls a passage related: the
 * off-topic messages of test/fixtures/retrieval ("hi", "thanks!", a pizza place) stay below it
 * (0.14 at most), see docs/benchmarks.md. An endpoint's model has no floor (its scale is its own).
 */
export const OFFLINE_MIN_SIMILARITY = 0.15;
/**
 * How much the offline embedding's ranking counts beside the words': it knows no synonyms and
 * mostly agrees with full text; what it adds is found words misspelt.
 */
export const OFFLINE_WEIGHT = 0.5;

/**
 * Hybrid search: the passages holding any of the question's words (PostgreSQL full text in the
 * base's language, the rarer words weighing more: see rankByWords) and those nearest to its
 * embedding (the endpoint's and the offline one), merged by reciprocal rank fusion. The score
 * is the fused one: higher is better, comparable across bases.
 */
@Injectable()
export class HybridPassageRetriever extends PassageRetriever {
  constructor(
    private readonly passages: KnowledgeBasePassagesRepository,
    private readonly embedder: PassageEmbedder,
  ) {
    super();
  }

  async search(
    organizationId: string,
    knowledgeBaseId: string,
    query: string,
    limit: number,
    options: PassageSearchOptions = {},
  ): Promise<PassageHit[]> {
    const texts = [query, ...(options.context ?? [])].filter((text) => text.trim() !== '');
    const rankings = await Promise.all(
      texts.map(async (text, index) =>
        (await this.rankings(organizationId, knowledgeBaseId, text, options)).map(
          ({ ids, weight = 1 }): Ranking<number> => ({
            ids,
            weight: index === 0 ? weight : weight * CONTEXT_WEIGHT,
          }),
        ),
      ),
    );
    const fused = fuseRankings(rankings.flat()).slice(0, limit);
    const found = await this.passages.hits(
      organizationId,
      fused.map(({ id }) => id),
    );
    return fused.flatMap(({ id, score }) => {
      const hit = found.get(id);
      return hit ? [{ ...hit, score }] : [];
    });
  }

  /** The text's ranking by words, and one by each of its embeddings. */
  private async rankings(
    organizationId: string,
    knowledgeBaseId: string,
    text: string,
    { embeddingTimeoutMs }: PassageSearchOptions,
  ): Promise<Ranking<number>[]> {
    const [byWords, embeddings] = await Promise.all([
      this.passages.rankByWords(organizationId, knowledgeBaseId, queryTerms(text), RANKING_DEPTH),
      this.embedder.embedQuery(text, embeddingTimeoutMs),
    ]);
    const byMeaning = await Promise.all(
      embeddings.map(async (embedding): Promise<Ranking<number>> => {
        const offline = embedding.model === LOCAL_EMBEDDING_MODEL;
        const candidates = await this.passages.nearestBySignature(
          organizationId,
          knowledgeBaseId,
          embedding,
          VECTOR_CANDIDATES,
        );
        const ids = rankBySimilarity(embedding.vector, candidates, {
          depth: RANKING_DEPTH,
          minSimilarity: offline ? OFFLINE_MIN_SIMILARITY : -1,
        });
        return { ids, weight: offline ? OFFLINE_WEIGHT : 1 };
      }),
    );
    return [{ ids: byWords }, ...byMeaning];
  }
}

/** The best `limit` passages across several knowledge bases of the organization, best first. */
export async function searchKnowledgeBases(
  retriever: Pick<PassageRetriever, 'search'>,
  organizationId: string,
  knowledgeBaseIds: readonly string[],
  query: string,
  limit: number,
  options?: PassageSearchOptions,
): Promise<PassageHit[]> {
  const hits = await Promise.all(
    knowledgeBaseIds.map((id) => retriever.search(organizationId, id, query, limit, options)),
  );
  return hits
    .flat()
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
