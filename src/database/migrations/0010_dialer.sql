CREATE TABLE "agents" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"agent_name" text NOT NULL,
	"gender" text,
	"voice" text,
	"conversation_type" text DEFAULT 'single_prompt' NOT NULL,
	"prompt" text DEFAULT '' NOT NULL,
	"greeting" text,
	"language" text DEFAULT 'en-US' NOT NULL,
	"knowledge_base_ids" text[] DEFAULT '{}' NOT NULL,
	"voicemail_message" text,
	"transfer_number" text,
	"max_call_seconds" integer DEFAULT 600 NOT NULL,
	"interruptible" boolean DEFAULT true NOT NULL,
	"analysis_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "next_dial_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "agent_id" varchar(24);--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "max_concurrent_calls" integer;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "record_calls" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "provider_call_id" text;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "from_number" text;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "agent_id" varchar(24);--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "answered_by" text;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "ended_reason" text;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "turns" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "summary" text;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "analysis" jsonb;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "permit" jsonb;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "placed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agents_organization_default_key" ON "agents" USING btree ("organization_id") WHERE is_default;--> statement-breakpoint
CREATE INDEX "agents_organization_created_idx" ON "agents" USING btree ("organization_id","created_at","id");--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batches_dialing_idx" ON "batches" USING btree ("organization_id") WHERE queue_status = 'active' AND NOT is_deleted;--> statement-breakpoint
CREATE INDEX "call_records_due_idx" ON "call_records" USING btree ("batch_id","next_attempt_at" NULLS FIRST) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "phone_logs_live_idx" ON "phone_logs" USING btree ("organization_id","batch_id") WHERE call_status IN ('queued', 'ringing', 'in-progress');--> statement-breakpoint
CREATE INDEX "phone_logs_lease_idx" ON "phone_logs" USING btree ("lease_expires_at") WHERE lease_expires_at IS NOT NULL;--> statement-breakpoint
UPDATE "batches" SET "paused_reason" = 'no_calling_number' WHERE "paused_reason" IS NOT NULL;
