import { Injectable } from '@nestjs/common';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { BACKGROUND_STATEMENT_TIMEOUT_MS } from '../../database/database.service';
import { Database, rowsOf } from '../../database';
import type { KnowledgeBaseLanguage } from './knowledge-base-languages';
import { knowledgeBaseDocuments, knowledgeBasePassages } from './knowledge-bases.schema';
import { SIGNATURE_BITS } from './retrieval/embedding-signature';
import type { TextEmbedding } from './retrieval/passage-embedder';

/** Rows per INSERT when a document's passages are written. */
const INSERT_ROWS = 200;

/**
 * A word in at least this many passages of a base is common: its passages are counted up to
 * here (the cost of counting stays bounded), and this many of them at most are ranked.
 */
export const COMMON_TERM_PASSAGES = 1_000;
/** Passages of a base counted for inverse document frequency, at most. */
const BASE_PASSAGES_COUNTED = 5_000;

export interface PassageHit {
  fileName: string;
  text: string;
  score: number;
}

/** A passage to write: its text and its embedding. */
export interface NewPassage {
  text: string;
  embedding: TextEmbedding;
}

/** Passages of documents and their searches; each query starts from the organization. */
@Injectable()
export class KnowledgeBasePassagesRepository {
  constructor(private readonly database: Database) {}

  /**
   * Inside a transaction: the document's passages become exactly `passages`, in order, indexed
   * in `language` (the base's, read under lock: see KnowledgeBasesRepository.lockLanguage).
   */
  async replace(
    organizationId: string,
    document: { id: string; knowledgeBaseId: string },
    passages: readonly NewPassage[],
    language: KnowledgeBaseLanguage,
  ): Promise<void> {
    await this.database.db
      .delete(knowledgeBasePassages)
      .where(
        and(
          eq(knowledgeBasePassages.organizationId, organizationId),
          eq(knowledgeBasePassages.documentId, document.id),
        ),
      );
    for (let start = 0; start < passages.length; start += INSERT_ROWS) {
      await this.database.db.insert(knowledgeBasePassages).values(
        passages.slice(start, start + INSERT_ROWS).map(({ text, embedding }, offset) => ({
          organizationId,
          knowledgeBaseId: document.knowledgeBaseId,
          documentId: document.id,
          position: start + offset,
          text,
          language,
          embedding: realArray(embedding.vector),
          embeddingModel: embedding.model,
          embeddingSignature: embedding.signature,
        })),
      );
    }
  }

  /**
   * Inside the transaction that set the base's language: its passages in another one are
   * indexed again in it (their words are generated from it). A big base takes a while: the
   * statement may run as long as background work.
   */
  async setLanguage(
    organizationId: string,
    knowledgeBaseId: string,
    language: KnowledgeBaseLanguage,
  ): Promise<void> {
    await this.database.db.execute(
      sql`SELECT set_config('statement_timeout', ${String(BACKGROUND_STATEMENT_TIMEOUT_MS)}, true)`,
    );
    await this.database.db
      .update(knowledgeBasePassages)
      .set({ language })
      .where(
        and(
          eq(knowledgeBasePassages.knowledgeBaseId, knowledgeBaseId),
          eq(knowledgeBasePassages.organizationId, organizationId),
          sql`${knowledgeBasePassages.language} <> ${language}::regconfig`,
        ),
      );
  }

  /**
   * Ids of the base's passages holding any of `terms` (to_tsquery terms: see queryTerms), best
   * first, at most `depth`. Each term a passage holds scores its inverse document frequency,
   * ln(1 + (N − n + 0.5) / (n + 0.5)) as BM25 weighs it (N passages in the base, n of them with
   * the term), times ts_rank of the term alone (which grows, less and less, with each further
   * occurrence: BM25's saturating term frequency). So a rare word outweighs words most passages
   * hold ("restocking" over "bike" in a bike shop's base); then document order. Every passage
   * holding a word found in fewer than COMMON_TERM_PASSAGES passages of the base is ranked; of
   * a common word's passages, the first COMMON_TERM_PASSAGES the index gives are ranked too (a
   * bound on the work that never drops a passage holding a rarer word of the question).
   * Counts stop at COMMON_TERM_PASSAGES (words) and BASE_PASSAGES_COUNTED (the base), so a
   * common word's weight is overestimated in a big base, never a rare one's.
   */
  async rankByWords(
    organizationId: string,
    knowledgeBaseId: string,
    terms: readonly string[],
    depth: number,
  ): Promise<number[]> {
    if (terms.length === 0) return [];
    const rows = rowsOf<{ id: number | string }>(
      await this.database.db.execute(
        this.rankByWordsStatement(organizationId, knowledgeBaseId, terms, depth),
      ),
    );
    return rows.map(({ id }) => Number(id));
  }

  /** The statement of rankByWords, unexecuted: what the tests and the benchmark EXPLAIN. */
  rankByWordsStatement(
    organizationId: string,
    knowledgeBaseId: string,
    terms: readonly string[],
    depth: number,
  ) {
    const passagesOfBase = sql`p.knowledge_base_id = ${knowledgeBaseId} AND p.organization_id = ${organizationId}`;
    const termList = sql`${`{${terms.map((term) => `"${term.replace(/["\\]/g, '')}"`).join(',')}}`}::text[]`;
    // The candidates' query goes in as a scalar subquery: hidden from the planner, which then
    // reads the matches through the (base, words) index rather than scanning for a common word.
    return sql`
      WITH config AS MATERIALIZED (
        SELECT language::regconfig AS language FROM knowledge_bases
        WHERE organization_id = ${organizationId} AND id = ${knowledgeBaseId}
      ),
      terms AS MATERIALIZED (
        SELECT DISTINCT ON (query::text) term, query
        FROM config, unnest(${termList}) AS term, LATERAL to_tsquery(config.language, term) AS query
        WHERE numnode(query) > 0
      ),
      counted AS MATERIALIZED (
        SELECT term, query,
          (SELECT count(*) FROM (SELECT 1 FROM knowledge_base_passages p
             WHERE ${passagesOfBase} AND p.search @@ terms.query
             LIMIT ${COMMON_TERM_PASSAGES}) hits)::float8 AS passages
        FROM terms
      ),
      base AS MATERIALIZED (
        SELECT count(*)::float8 AS passages FROM (SELECT 1 FROM knowledge_base_passages p
          WHERE ${passagesOfBase} LIMIT ${BASE_PASSAGES_COUNTED}) every
      ),
      weights AS MATERIALIZED (
        SELECT term, query, counted.passages,
          ln(1 + (greatest(base.passages, counted.passages) - counted.passages + 0.5) / (counted.passages + 0.5)) AS idf
        FROM counted, base WHERE counted.passages > 0
      ),
      rare AS MATERIALIZED (
        SELECT to_tsquery(config.language, string_agg(term, ' | ')) AS query
        FROM weights, config WHERE passages < ${COMMON_TERM_PASSAGES} GROUP BY config.language
      ),
      candidates AS MATERIALIZED (
        SELECT p.id, p.document_id, p.position, p.search FROM knowledge_base_passages p
        WHERE ${passagesOfBase} AND p.search @@ (SELECT query FROM rare)
        UNION
        SELECT common.* FROM weights, LATERAL (
          SELECT p.id, p.document_id, p.position, p.search FROM knowledge_base_passages p
          WHERE ${passagesOfBase} AND p.search @@ weights.query
          LIMIT ${COMMON_TERM_PASSAGES}
        ) common
        WHERE weights.passages >= ${COMMON_TERM_PASSAGES}
      )
      SELECT p.id FROM candidates p
      ORDER BY (SELECT sum(w.idf * ts_rank(p.search, w.query)) FROM weights w
          WHERE p.search @@ w.query) DESC, p.document_id, p.position
      LIMIT ${depth}`;
  }

  /**
   * The `candidates` passages of the base embedded by `embedding.model` whose signatures are
   * nearest to its signature (Hamming distance, read from the signature index alone), with
   * their vectors, nearest first. The caller scores them exactly (see rankBySimilarity): in
   * SQL, a dot product of two real[] costs about 0.4 ms a passage; here the vectors come as
   * binary arrays and are multiplied in microseconds.
   */
  async nearestBySignature(
    organizationId: string,
    knowledgeBaseId: string,
    embedding: TextEmbedding,
    candidates: number,
  ): Promise<Array<{ id: number; vector: Float32Array }>> {
    const rows = rowsOf<{ id: number | string; vector: Uint8Array }>(
      await this.database.db.execute(sql`
        SELECT p.id, array_send(p.embedding) AS vector
        FROM (
          SELECT id FROM knowledge_base_passages
          WHERE knowledge_base_id = ${knowledgeBaseId}
            AND embedding_model = ${embedding.model}
            AND organization_id = ${organizationId}
            AND length(embedding_signature) = ${SIGNATURE_BITS}
          ORDER BY bit_count(embedding_signature # ${embedding.signature}::varbit), id
          LIMIT ${candidates}
        ) near
        JOIN knowledge_base_passages p ON p.id = near.id`),
    );
    return rows.map(({ id, vector }) => ({ id: Number(id), vector: decodeRealArray(vector) }));
  }

  /** The text and document of each of these passages of the organization, by id. */
  async hits(
    organizationId: string,
    ids: readonly number[],
  ): Promise<Map<number, { fileName: string; text: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.database.db
      .select({
        id: knowledgeBasePassages.id,
        fileName: knowledgeBaseDocuments.fileName,
        text: knowledgeBasePassages.text,
      })
      .from(knowledgeBasePassages)
      .innerJoin(
        knowledgeBaseDocuments,
        eq(knowledgeBaseDocuments.id, knowledgeBasePassages.documentId),
      )
      .where(
        and(
          eq(knowledgeBasePassages.organizationId, organizationId),
          inArray(knowledgeBasePassages.id, [...ids]),
        ),
      );
    return new Map(rows.map(({ id, ...hit }) => [id, hit]));
  }
}

/**
 * A one-dimensional real[] in PostgreSQL's binary array format (array_send): dimensions, a null
 * flag, the element type, each dimension's length and lower bound, then each element as its
 * length (4) and a big-endian float4.
 */
export function decodeRealArray(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dimensions = view.getInt32(0);
  if (dimensions === 0) return new Float32Array(0);
  if (dimensions !== 1 || view.getInt32(4) !== 0) throw new Error('not a one-dimensional real[]');
  const length = view.getInt32(12);
  const vector = new Float32Array(length);
  for (let i = 0, at = 20; i < length; i += 1, at += 8) vector[i] = view.getFloat32(at + 4);
  return vector;
}

/** A vector as the values of a real[] (seven significant digits: what a float4 holds). */
function realArray(vector: Float32Array): number[] {
  return Array.from(vector, (value) => Number(value.toPrecision(7)));
}
