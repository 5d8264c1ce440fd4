ALTER TABLE "agents" ADD COLUMN "first_speaker" text DEFAULT 'agent' NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "callee_first_wait_ms" integer DEFAULT 2500 NOT NULL;