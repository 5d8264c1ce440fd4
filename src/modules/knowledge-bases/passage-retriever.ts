import { Injectable } from '@nestjs/common';
import {
  KnowledgeBasePassagesRepository,
  type PassageHit,
} from './knowledge-base-passages.repository';

/**
 * How agents find the passages of a knowledge base that answer a question. Full-text search
 * today; a vector (embedding) search, or a hybrid of both, is another implementation of this
 * class bound in KnowledgeBasesModule — with its own index written where the extraction job
 * writes passages.
 */
export abstract class PassageRetriever {
  abstract search(
    organizationId: string,
    knowledgeBaseId: string,
    query: string,
    limit: number,
  ): Promise<PassageHit[]>;
}

/** PostgreSQL full-text search: tsvector + GIN on (base, words), websearch_to_tsquery, ts_rank. */
@Injectable()
export class FullTextPassageRetriever extends PassageRetriever {
  constructor(private readonly passages: KnowledgeBasePassagesRepository) {
    super();
  }

  search(
    organizationId: string,
    knowledgeBaseId: string,
    query: string,
    limit: number,
  ): Promise<PassageHit[]> {
    return this.passages.search(organizationId, knowledgeBaseId, query, limit);
  }
}

/** The best `limit` passages across several knowledge bases of the organization, best first. */
export async function searchKnowledgeBases(
  retriever: Pick<PassageRetriever, 'search'>,
  organizationId: string,
  knowledgeBaseIds: readonly string[],
  query: string,
  limit: number,
): Promise<PassageHit[]> {
  const hits = await Promise.all(
    knowledgeBaseIds.map((id) => retriever.search(organizationId, id, query, limit)),
  );
  return hits
    .flat()
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
