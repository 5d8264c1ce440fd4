ALTER TABLE "batches" ADD COLUMN "retry_policy" jsonb;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "start_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "end_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "attempts_before_series" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "batches_end_at_idx" ON "batches" USING btree ("end_at") WHERE end_at IS NOT NULL AND queue_status <> 'completed' AND NOT is_deleted;