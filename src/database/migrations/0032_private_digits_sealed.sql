ALTER TABLE "phone_logs" ADD COLUMN "sealed_digits" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sealed_data" text;