CREATE TABLE "phone_numbers" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"user_id" varchar(24) NOT NULL,
	"phone_number" text NOT NULL,
	"integration" text NOT NULL,
	"credentials" text NOT NULL,
	"provider_number_id" text NOT NULL,
	"provider_app_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"webhooks_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_user_number_key" ON "phone_numbers" USING btree ("user_id","phone_number");--> statement-breakpoint
CREATE INDEX "phone_numbers_organization_created_idx" ON "phone_numbers" USING btree ("organization_id","created_at");