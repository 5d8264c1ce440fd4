CREATE TABLE "messaging_early_statuses" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"integration_id" varchar(24) NOT NULL,
	"platform_message_id" text NOT NULL,
	"status" text NOT NULL,
	"recipient_id" text NOT NULL,
	"error_code" integer,
	"error_message" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messaging_messages" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
-- Messages stored before the sweeper were answered (or not) by then: it must not answer them now.
UPDATE "messaging_messages" SET "handled_at" = "created_at" WHERE "direction" = 'inbound';--> statement-breakpoint
ALTER TABLE "messaging_early_statuses" ADD CONSTRAINT "messaging_early_statuses_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_early_statuses" ADD CONSTRAINT "messaging_early_statuses_integration_id_messaging_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."messaging_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_early_statuses_key" ON "messaging_early_statuses" USING btree ("integration_id","platform_message_id","status");--> statement-breakpoint
CREATE INDEX "messaging_early_statuses_received_idx" ON "messaging_early_statuses" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "messaging_messages_unhandled_idx" ON "messaging_messages" USING btree ("created_at") WHERE "messaging_messages"."direction" = 'inbound' AND "messaging_messages"."handled_at" IS NULL;--> statement-breakpoint
CREATE INDEX "messaging_messages_stuck_sends_idx" ON "messaging_messages" USING btree ("updated_at") WHERE "messaging_messages"."status" = 'pending' AND "messaging_messages"."send_attempts" > 0;--> statement-breakpoint
CREATE INDEX "messaging_webhook_events_unprocessed_idx" ON "messaging_webhook_events" USING btree ("received_at") WHERE "messaging_webhook_events"."processed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "messaging_webhook_events_processed_idx" ON "messaging_webhook_events" USING btree ("processed_at") WHERE "messaging_webhook_events"."processed_at" IS NOT NULL;