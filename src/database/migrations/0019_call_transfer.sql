ALTER TABLE "phone_logs" ADD COLUMN "transferred_to" text;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "transferred_at" timestamp with time zone;