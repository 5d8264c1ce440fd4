CREATE TABLE "messaging_conversations" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"integration_id" varchar(24) NOT NULL,
	"customer_wa_id" text NOT NULL,
	"customer_name" text,
	"last_customer_message_at" timestamp with time zone NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"needs_template" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_messages" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"conversation_id" varchar(24) NOT NULL,
	"integration_id" varchar(24) NOT NULL,
	"direction" text NOT NULL,
	"type" text NOT NULL,
	"purpose" text,
	"text" text,
	"template" jsonb,
	"platform_message_id" text,
	"status" text NOT NULL,
	"error_code" text,
	"error_message" text,
	"reply_to_id" varchar(24),
	"opens_conversation" boolean DEFAULT false NOT NULL,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"platform_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_webhook_events" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD CONSTRAINT "messaging_conversations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD CONSTRAINT "messaging_conversations_integration_id_messaging_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."messaging_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_messages" ADD CONSTRAINT "messaging_messages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messaging_messages" ADD CONSTRAINT "messaging_messages_conversation_id_messaging_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."messaging_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_conversations_customer_key" ON "messaging_conversations" USING btree ("integration_id","customer_wa_id");--> statement-breakpoint
CREATE INDEX "messaging_conversations_organization_recent_idx" ON "messaging_conversations" USING btree ("organization_id","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_messages_platform_id_key" ON "messaging_messages" USING btree ("integration_id","platform_message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_messages_reply_key" ON "messaging_messages" USING btree ("reply_to_id","purpose") WHERE "messaging_messages"."reply_to_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "messaging_messages_conversation_idx" ON "messaging_messages" USING btree ("conversation_id","created_at","id");