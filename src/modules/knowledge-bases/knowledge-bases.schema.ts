import { sql } from 'drizzle-orm';
import {
  bigserial,
  customType,
  index,
  integer,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';
import type { KnowledgeBaseLanguage } from './knowledge-base-languages';

export const DOCUMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** A text search configuration (stemming and stop words of one language), by name. */
const regconfig = customType<{ data: string }>({ dataType: () => 'regconfig' });
const bitVarying = customType<{ data: string }>({ dataType: () => 'bit varying' });

/** A named set of documents whose passages agents are given. */
export const knowledgeBases = pgTable(
  'knowledge_bases',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The text search configuration of its passages and of queries (knowledge-base-languages.ts). */
    language: text('language').$type<KnowledgeBaseLanguage>().notNull().default('english'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('knowledge_bases_organization_created_idx').on(t.organizationId, t.createdAt, t.id),
  ],
);

/**
 * One uploaded file. Its bytes live in ObjectStorage under `storageKey` (generated, never the
 * client's name); `fileName` is the sanitized display name, unique within the base.
 */
export const knowledgeBaseDocuments = pgTable(
  'knowledge_base_documents',
  {
    id: objectIdPk(),
    organizationId: objectIdRef('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    knowledgeBaseId: objectIdRef('knowledge_base_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    size: integer('size').notNull(),
    contentType: text('content_type').notNull(),
    status: text('status').$type<DocumentStatus>().notNull().default('processing'),
    /** Why extraction failed; null otherwise. */
    statusReason: text('status_reason'),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('knowledge_base_documents_name_key').on(t.knowledgeBaseId, t.fileName),
    index('knowledge_base_documents_organization_idx').on(t.organizationId, t.knowledgeBaseId),
  ],
);

/** Overlapping chunks of a document's text, indexed for full-text search. */
export const knowledgeBasePassages = pgTable(
  'knowledge_base_passages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: objectIdRef('organization_id').notNull(),
    knowledgeBaseId: objectIdRef('knowledge_base_id').notNull(),
    documentId: objectIdRef('document_id')
      .notNull()
      .references(() => knowledgeBaseDocuments.id, { onDelete: 'cascade' }),
    /** Order within the document, from 0. */
    position: integer('position').notNull(),
    text: text('text').notNull(),
    /**
     * The base's language when the passage was written or the base's language last changed: a
     * generated column can read its own row only, so the base's setting is copied here.
     */
    language: regconfig('language')
      .notNull()
      .default(sql`'english'::regconfig`),
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector("language", "text")`),
    /** Unit-length embedding of the text; null for passages written before embeddings. */
    embedding: real('embedding').array(),
    /** Which embedding `embedding` is (see passage-embedder.ts): only like is compared with like. */
    embeddingModel: text('embedding_model'),
    /** Sign bits of random projections of `embedding`: its nearest are found by Hamming distance first. */
    embeddingSignature: bitVarying('embedding_signature'),
  },
  (t) => [
    // One GIN index over the base and the words (btree_gin): a search reads the matches of its
    // base only. Without the pending list (fastupdate off) a passage is in the index when its
    // insert commits, so searches right after an upload do not scan unmerged entries;
    // inserts pay instead (~0.13 ms more a passage, measured on 5,928 passages).
    index('knowledge_base_passages_search_idx')
      .using('gin', t.knowledgeBaseId, t.search)
      .with({ fastupdate: false }),
    index('knowledge_base_passages_document_idx').on(t.documentId, t.position),
    // What the nearest-neighbour scan reads, index only: the base's signatures of one model
    // and their ids (a full scan of the base's rows would read their text and words too).
    index('knowledge_base_passages_signature_idx').on(
      t.knowledgeBaseId,
      t.embeddingModel,
      t.organizationId,
      t.embeddingSignature,
      t.id,
    ),
  ],
);

export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
export type KnowledgeBaseDocumentRow = typeof knowledgeBaseDocuments.$inferSelect;
