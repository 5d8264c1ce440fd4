CREATE TABLE "video_agents" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"name" text NOT NULL,
	"mode" text NOT NULL,
	"voice_id" text NOT NULL,
	"language" text NOT NULL,
	"prompt" text DEFAULT '' NOT NULL,
	"greeting" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video_agents" ADD CONSTRAINT "video_agents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_agents_organization_idx" ON "video_agents" USING btree ("organization_id");