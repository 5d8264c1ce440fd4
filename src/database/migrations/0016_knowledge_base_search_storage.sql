-- btree_gin: the passages' search index holds the knowledge base id beside the words.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
-- Keep each passage's tsvector in its row (compressed if need be) rather than in the TOAST
-- table: a search ranks up to 1,000 matches and would otherwise fetch each one's chunks.
ALTER TABLE "knowledge_base_passages" ALTER COLUMN "search" SET STORAGE MAIN;
