CREATE TABLE "batches" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"batch_name" text NOT NULL,
	"calling_numbers" text[] NOT NULL,
	"retry" integer DEFAULT 0 NOT NULL,
	"delay" integer DEFAULT 0 NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"calling_hour_start" text,
	"calling_hour_end" text,
	"allowed_days" integer[] DEFAULT '{0,1,2,3,4,5,6}' NOT NULL,
	"enforce_callee_local_hours" boolean DEFAULT true NOT NULL,
	"queue_status" text DEFAULT 'active' NOT NULL,
	"paused_reason" text,
	"total_calls" integer DEFAULT 0 NOT NULL,
	"calls_picked" integer DEFAULT 0 NOT NULL,
	"calls_completed" integer DEFAULT 0 NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batch_status_counts" (
	"batch_id" varchar(24) NOT NULL,
	"call_status" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_records" (
	"id" varchar(24) PRIMARY KEY DEFAULT lpad(to_hex(extract(epoch from now())::bigint), 8, '0') || substr(md5(random()::text || clock_timestamp()::text), 1, 16) NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"batch_id" varchar(24) NOT NULL,
	"phone_number" text NOT NULL,
	"contact" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search_text" text GENERATED ALWAYS AS (regexp_replace(jsonb_path_query_array(contact, 'strict $.*')::text, '^\["|"\]$|", "', E'\n', 'g')) STORED,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_call_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phone_logs" (
	"id" varchar(24) PRIMARY KEY DEFAULT lpad(to_hex(extract(epoch from now())::bigint), 8, '0') || substr(md5(random()::text || clock_timestamp()::text), 1, 16) NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"batch_id" varchar(24) NOT NULL,
	"call_record_id" varchar(24) NOT NULL,
	"request_uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"call_status" text NOT NULL,
	"call_duration" integer DEFAULT 0 NOT NULL,
	"recording_url" text,
	"transcript" text,
	"provider_status" text,
	"phone_id" varchar(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dnc_entries" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"phone_number" text NOT NULL,
	"type" text,
	"batch_id" varchar(24),
	"call_record_id" varchar(24),
	"phone_log_id" varchar(24),
	"request_uuid" text,
	"recording_url" text,
	"transcript" text,
	"created_by_user_id" varchar(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"organization_id" varchar(24) NOT NULL,
	"operation" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_organization_id_operation_key_pk" PRIMARY KEY("organization_id","operation","key")
);
--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_status_counts" ADD CONSTRAINT "batch_status_counts_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD CONSTRAINT "phone_logs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD CONSTRAINT "phone_logs_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_logs" ADD CONSTRAINT "phone_logs_call_record_id_call_records_id_fk" FOREIGN KEY ("call_record_id") REFERENCES "public"."call_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnc_entries" ADD CONSTRAINT "dnc_entries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnc_entries" ADD CONSTRAINT "dnc_entries_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnc_entries" ADD CONSTRAINT "dnc_entries_call_record_id_call_records_id_fk" FOREIGN KEY ("call_record_id") REFERENCES "public"."call_records"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnc_entries" ADD CONSTRAINT "dnc_entries_phone_log_id_phone_logs_id_fk" FOREIGN KEY ("phone_log_id") REFERENCES "public"."phone_logs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dnc_entries" ADD CONSTRAINT "dnc_entries_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batches_owner_listing_idx" ON "batches" USING btree ("organization_id","user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE NOT "batches"."is_deleted";--> statement-breakpoint
CREATE INDEX "batches_calling_numbers_idx" ON "batches" USING gin ("calling_numbers");--> statement-breakpoint
CREATE UNIQUE INDEX "batch_status_counts_key" ON "batch_status_counts" USING btree ("batch_id","call_status");--> statement-breakpoint
CREATE INDEX "call_records_batch_page_idx" ON "call_records" USING btree ("batch_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "call_records_batch_phone_key" ON "call_records" USING btree ("batch_id","phone_number");--> statement-breakpoint
CREATE INDEX "call_records_batch_status_page_idx" ON "call_records" USING btree ("batch_id","last_call_status","created_at","id");--> statement-breakpoint
CREATE INDEX "call_records_search_trgm_idx" ON "call_records" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "call_records_pending_number_idx" ON "call_records" USING btree ("organization_id","phone_number") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "phone_logs_request_uuid_key" ON "phone_logs" USING btree ("request_uuid");--> statement-breakpoint
CREATE INDEX "phone_logs_record_created_idx" ON "phone_logs" USING btree ("call_record_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "dnc_entries_organization_number_key" ON "dnc_entries" USING btree ("organization_id","phone_number");--> statement-breakpoint
CREATE INDEX "dnc_entries_organization_created_idx" ON "dnc_entries" USING btree ("organization_id","created_at");