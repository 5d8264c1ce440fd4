ALTER TABLE "phone_logs" ADD COLUMN "answer_outcome" text;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "answer_outcome_ms" integer;