ALTER TABLE "idempotency_keys" ADD COLUMN "claim_id" text;--> statement-breakpoint
-- Claims of requests that died before this version held their key for 24 hours: a lease instead.
UPDATE "idempotency_keys" SET "expires_at" = least("expires_at", now() + interval '30 seconds') WHERE "response_status" IS NULL;
