CREATE TABLE "provider_accounts" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"integration" text NOT NULL,
	"account_key" text NOT NULL,
	"calls_per_second" real,
	"next_dial_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD COLUMN "provider_account_id" varchar(24);--> statement-breakpoint
CREATE UNIQUE INDEX "provider_accounts_key" ON "provider_accounts" USING btree ("integration","account_key");--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_provider_account_id_provider_accounts_id_fk" FOREIGN KEY ("provider_account_id") REFERENCES "public"."provider_accounts"("id") ON DELETE set null ON UPDATE no action;