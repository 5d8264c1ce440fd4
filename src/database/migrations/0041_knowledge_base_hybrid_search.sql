-- Each passage carries its base's text search configuration, and its words are indexed in it.
-- The generated column is recreated (PostgreSQL 15 cannot change its expression), which drops
-- its index: the column's storage and the (base, words) index are set again as 0016/0017 did.
ALTER TABLE "knowledge_base_passages" ADD COLUMN "language" "regconfig" DEFAULT 'english'::regconfig NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_base_passages" drop column "search";--> statement-breakpoint
ALTER TABLE "knowledge_base_passages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector("language", "text")) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_base_passages" ALTER COLUMN "search" SET STORAGE MAIN;--> statement-breakpoint
CREATE INDEX "knowledge_base_passages_search_idx" ON "knowledge_base_passages" USING gin ("knowledge_base_id","search") WITH (fastupdate=false);--> statement-breakpoint
ALTER TABLE "knowledge_base_passages" ADD COLUMN "embedding" real[];--> statement-breakpoint
ALTER TABLE "knowledge_base_passages" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "knowledge_base_passages" ADD COLUMN "embedding_signature" bit varying;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD COLUMN "language" text DEFAULT 'english' NOT NULL;--> statement-breakpoint
CREATE INDEX "knowledge_base_passages_signature_idx" ON "knowledge_base_passages" USING btree ("knowledge_base_id","embedding_model","organization_id","embedding_signature","id");
