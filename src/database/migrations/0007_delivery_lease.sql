DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
-- Deliveries in flight at upgrade keep their claim: 'sending' is now a pending row under lease.
UPDATE "webhook_deliveries" SET "status" = 'pending', "lease_until" = "next_attempt_at" WHERE "status" = 'sending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending' AND next_attempt_at IS NOT NULL;
