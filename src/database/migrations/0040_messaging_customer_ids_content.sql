DROP INDEX "messaging_conversations_customer_key";--> statement-breakpoint
ALTER TABLE "messaging_conversations" ALTER COLUMN "customer_wa_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD COLUMN "customer_user_id" text;--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD COLUMN "customer_username" text;--> statement-breakpoint
ALTER TABLE "messaging_messages" ADD COLUMN "content" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_conversations_user_key" ON "messaging_conversations" USING btree ("integration_id","customer_user_id") WHERE "messaging_conversations"."customer_user_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "messaging_conversations_phone_key" ON "messaging_conversations" USING btree ("integration_id","customer_wa_id") WHERE "messaging_conversations"."customer_user_id" IS NULL;--> statement-breakpoint
CREATE INDEX "messaging_conversations_wa_id_idx" ON "messaging_conversations" USING btree ("integration_id","customer_wa_id");--> statement-breakpoint
ALTER TABLE "messaging_conversations" ADD CONSTRAINT "messaging_conversations_customer_check" CHECK ("messaging_conversations"."customer_wa_id" IS NOT NULL OR "messaging_conversations"."customer_user_id" IS NOT NULL);