CREATE TABLE "messaging_agents" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"integration_id" varchar(24) NOT NULL,
	"phone_number_id" text NOT NULL,
	"agent_name" text NOT NULL,
	"system_prompt" text NOT NULL,
	"welcome_message" text,
	"knowledge_base_ids" text[] DEFAULT '{}' NOT NULL,
	"model" text,
	"temperature" real,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_integrations" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"phone_number_id" text NOT NULL,
	"business_account_id" text NOT NULL,
	"phone_number" text NOT NULL,
	"display_name" text NOT NULL,
	"quality_rating" text,
	"access_token" text NOT NULL,
	"status" text DEFAULT 'connected' NOT NULL,
	"webhook_url" text,
	"templates_synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_templates" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"integration_id" varchar(24) NOT NULL,
	"template_id" text NOT NULL,
	"business_account_id" text NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"parameter_format" text NOT NULL,
	"components" jsonb NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_undeliverable_numbers" (
	"organization_id" varchar(24) NOT NULL,
	"phone_number" text NOT NULL,
	"error_code" integer NOT NULL,
	"reported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messaging_agents" ADD CONSTRAINT "messaging_agents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_agents" ADD CONSTRAINT "messaging_agents_integration_id_messaging_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."messaging_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_integrations" ADD CONSTRAINT "messaging_integrations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_templates" ADD CONSTRAINT "messaging_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_templates" ADD CONSTRAINT "messaging_templates_integration_id_messaging_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."messaging_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_undeliverable_numbers" ADD CONSTRAINT "messaging_undeliverable_numbers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_agents_integration_key" ON "messaging_agents" USING btree ("integration_id");--> statement-breakpoint
CREATE INDEX "messaging_agents_organization_idx" ON "messaging_agents" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_integrations_phone_number_id_key" ON "messaging_integrations" USING btree ("phone_number_id");--> statement-breakpoint
CREATE INDEX "messaging_integrations_organization_created_idx" ON "messaging_integrations" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_templates_integration_template_key" ON "messaging_templates" USING btree ("integration_id","template_id");--> statement-breakpoint
CREATE INDEX "messaging_templates_organization_idx" ON "messaging_templates" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_undeliverable_numbers_key" ON "messaging_undeliverable_numbers" USING btree ("organization_id","phone_number");