import { Injectable } from '@nestjs/common';
import { and, desc, eq, sql } from 'drizzle-orm';
import { Database } from '../../database';
import {
  knowledgeBaseDocuments,
  knowledgeBasePassages,
  TEXT_SEARCH_CONFIG,
} from './knowledge-bases.schema';

/** Matches ranked per search at most (see search). */
export const RANKED_MATCHES = 1_000;

/** Rows per INSERT when a document's passages are written. */
const INSERT_ROWS = 500;

export interface PassageHit {
  fileName: string;
  text: string;
  score: number;
}

/** Passages of documents and their full-text search; each query starts from the organization. */
@Injectable()
export class KnowledgeBasePassagesRepository {
  constructor(private readonly database: Database) {}

  /** Inside a transaction: the document's passages become exactly `texts`, in order. */
  async replace(
    organizationId: string,
    document: { id: string; knowledgeBaseId: string },
    texts: string[],
  ): Promise<void> {
    await this.database.db
      .delete(knowledgeBasePassages)
      .where(
        and(
          eq(knowledgeBasePassages.organizationId, organizationId),
          eq(knowledgeBasePassages.documentId, document.id),
        ),
      );
    for (let start = 0; start < texts.length; start += INSERT_ROWS) {
      await this.database.db.insert(knowledgeBasePassages).values(
        texts.slice(start, start + INSERT_ROWS).map((text, offset) => ({
          organizationId,
          knowledgeBaseId: document.knowledgeBaseId,
          documentId: document.id,
          position: start + offset,
          text,
        })),
      );
    }
  }

  /**
   * The passages of the base that match the query (web-search syntax: words, "phrases", -not,
   * or), best first by ts_rank (how often and how close together the words occur), then in
   * document order. Only the first RANKED_MATCHES matches the index finds are ranked: a word in
   * most passages of a big base would otherwise rank every one of them; a query with fewer
   * matches is ranked in full. ts_rank, not ts_rank_cd: cover density costs several times more
   * per passage, most with `or` and -word (docs/benchmarks.md). The text is read for the rows
   * returned only.
   */
  async search(
    organizationId: string,
    knowledgeBaseId: string,
    query: string,
    limit: number,
  ): Promise<PassageHit[]> {
    return this.searchStatement(organizationId, knowledgeBaseId, query, limit);
  }

  /** The statement of search, unexecuted: what the tests and the benchmark EXPLAIN. */
  searchStatement(organizationId: string, knowledgeBaseId: string, query: string, limit: number) {
    // A scalar subquery hides the words from the planner, which then assumes few matches and
    // reads them through the (base, words) index. Given the words, it would scan the table
    // for a common one until RANKED_MATCHES rows matched, through other bases' passages too.
    const tsQuery = sql`(SELECT websearch_to_tsquery(${TEXT_SEARCH_CONFIG}::regconfig, ${query}))`;
    const matches = this.database.db
      .select({
        id: knowledgeBasePassages.id,
        documentId: knowledgeBasePassages.documentId,
        position: knowledgeBasePassages.position,
        score: sql<number>`ts_rank(${knowledgeBasePassages.search}, ${tsQuery})`.as('score'),
      })
      .from(knowledgeBasePassages)
      .where(
        and(
          eq(knowledgeBasePassages.organizationId, organizationId),
          eq(knowledgeBasePassages.knowledgeBaseId, knowledgeBaseId),
          sql`${knowledgeBasePassages.search} @@ ${tsQuery}`,
        ),
      )
      .limit(RANKED_MATCHES)
      .as('matches');
    const best = this.database.db
      .select()
      .from(matches)
      .orderBy(desc(matches.score), matches.documentId, matches.position)
      .limit(limit)
      .as('best');
    return this.database.db
      .select({
        fileName: knowledgeBaseDocuments.fileName,
        text: knowledgeBasePassages.text,
        score: sql<number>`${best.score}`.mapWith(Number),
      })
      .from(best)
      .innerJoin(knowledgeBasePassages, eq(knowledgeBasePassages.id, best.id))
      .innerJoin(knowledgeBaseDocuments, eq(knowledgeBaseDocuments.id, best.documentId))
      .orderBy(desc(best.score), best.documentId, best.position);
  }
}
