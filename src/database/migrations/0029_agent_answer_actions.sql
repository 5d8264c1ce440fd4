ALTER TABLE "agents" ADD COLUMN "on_ivr" text DEFAULT 'navigate' NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "on_call_screening" text DEFAULT 'announce' NOT NULL;