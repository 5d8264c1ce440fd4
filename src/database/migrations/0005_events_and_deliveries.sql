CREATE TABLE "event_sequences" (
	"organization_id" varchar(24) NOT NULL,
	"call_id" text NOT NULL,
	"last_sequence" integer NOT NULL,
	CONSTRAINT "event_sequences_organization_id_call_id_pk" PRIMARY KEY("organization_id","call_id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"type" text NOT NULL,
	"call_id" text,
	"sequence" integer NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_circuits" (
	"webhook_id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"state" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"next_probe_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" varchar(24) PRIMARY KEY DEFAULT lpad(to_hex(extract(epoch from now())::bigint), 8, '0') || substr(md5(random()::text || clock_timestamp()::text), 1, 16) NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"webhook_id" varchar(24) NOT NULL,
	"event_id" varchar(40) NOT NULL,
	"event_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_trigger" text DEFAULT 'scheduled' NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_attempts" (
	"id" varchar(24) PRIMARY KEY DEFAULT lpad(to_hex(extract(epoch from now())::bigint), 8, '0') || substr(md5(random()::text || clock_timestamp()::text), 1, 16) NOT NULL,
	"delivery_id" varchar(24) NOT NULL,
	"webhook_id" varchar(24) NOT NULL,
	"attempt_no" integer NOT NULL,
	"trigger" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"url" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"duration_ms" integer NOT NULL,
	"error_class" text,
	"next_attempt_at" timestamp with time zone,
	"attempted_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_sequences" ADD CONSTRAINT "event_sequences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_circuits" ADD CONSTRAINT "webhook_circuits_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_organization_call_idx" ON "events" USING btree ("organization_id","call_id","sequence") WHERE call_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_webhook_key" ON "webhook_deliveries" USING btree ("event_id","webhook_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_created_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status IN ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_held_idx" ON "webhook_deliveries" USING btree ("webhook_id","created_at") WHERE status = 'held';--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_delivery_idx" ON "webhook_delivery_attempts" USING btree ("delivery_id","attempt_no");--> statement-breakpoint
CREATE INDEX "webhook_delivery_attempts_webhook_idx" ON "webhook_delivery_attempts" USING btree ("webhook_id","attempted_at");