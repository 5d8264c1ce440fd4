import { sql } from 'drizzle-orm';
import {
  bigserial,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, objectIdPk, objectIdRef, updatedAt } from '../../database/columns';
import { organizations } from '../organizations/organizations.schema';

export const DOCUMENT_STATUSES = ['processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/**
 * The text search configuration of passages and queries: English stemming ("pelicans" finds
 * "pelican"), stop words dropped. Both engines (PostgreSQL, PGlite) ship it.
 */
export const TEXT_SEARCH_CONFIG = 'english';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

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
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(sql.raw(`to_tsvector('${TEXT_SEARCH_CONFIG}'::regconfig, "text")`)),
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
  ],
);

export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
export type KnowledgeBaseDocumentRow = typeof knowledgeBaseDocuments.$inferSelect;
