ALTER TABLE "agents" ADD COLUMN "transfer_mode" text DEFAULT 'cold' NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "transfer_briefing" text;