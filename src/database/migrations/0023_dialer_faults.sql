ALTER TABLE "phone_logs" ADD COLUMN "placing_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "window_closes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "recovery_lookups" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD COLUMN "recovery_started_at" timestamp with time zone;