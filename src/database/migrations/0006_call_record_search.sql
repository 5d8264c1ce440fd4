CREATE TABLE "call_record_search" (
	"call_record_id" varchar(24) PRIMARY KEY NOT NULL,
	"batch_id" varchar(24) NOT NULL,
	"search_text" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_records" DROP CONSTRAINT "call_records_organization_id_organizations_id_fk";
--> statement-breakpoint
DROP INDEX "call_records_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "search_indexed_at" timestamp with time zone DEFAULT '-infinity' NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "search_indexed_id" varchar(24) DEFAULT '' NOT NULL;--> statement-breakpoint
-- Backfill: every existing record gets its search row, so every existing batch is indexed to the end.
INSERT INTO "call_record_search" ("call_record_id", "batch_id", "search_text")
SELECT "id", "batch_id", "search_text" FROM "call_records";--> statement-breakpoint
UPDATE "batches" SET "search_indexed_at" = 'infinity';--> statement-breakpoint
ALTER TABLE "call_record_search" ADD CONSTRAINT "call_record_search_call_record_id_call_records_id_fk" FOREIGN KEY ("call_record_id") REFERENCES "public"."call_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_record_search_trgm_idx" ON "call_record_search" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "call_records" DROP COLUMN "search_text";
