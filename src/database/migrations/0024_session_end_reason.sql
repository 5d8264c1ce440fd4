ALTER TABLE "phone_logs" ADD COLUMN "session_ended_by" text;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "failed_dependency" text;