DROP INDEX "knowledge_base_passages_base_idx";--> statement-breakpoint
DROP INDEX "knowledge_base_passages_search_idx";--> statement-breakpoint
CREATE INDEX "knowledge_base_passages_search_idx" ON "knowledge_base_passages" USING gin ("knowledge_base_id","search") WITH (fastupdate=false);