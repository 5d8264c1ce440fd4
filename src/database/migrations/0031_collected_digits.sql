ALTER TABLE "agents" ADD COLUMN "private_digits" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "collected_digits" jsonb DEFAULT '{}'::jsonb NOT NULL;