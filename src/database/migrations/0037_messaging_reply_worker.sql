ALTER TABLE "messaging_conversations" ADD COLUMN "reply_worker_id" text;--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD COLUMN "reply_worker_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD COLUMN "reply_requested" boolean DEFAULT false NOT NULL;