CREATE TABLE "knowledge_base_documents" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"knowledge_base_id" varchar(24) NOT NULL,
	"file_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"status_reason" text,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_base_documents_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "knowledge_base_passages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"knowledge_base_id" varchar(24) NOT NULL,
	"document_id" varchar(24) NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "text")) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_bases" (
	"id" varchar(24) PRIMARY KEY NOT NULL,
	"organization_id" varchar(24) NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "knowledge_base_documents" ADD CONSTRAINT "knowledge_base_documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_base_documents" ADD CONSTRAINT "knowledge_base_documents_knowledge_base_id_knowledge_bases_id_fk" FOREIGN KEY ("knowledge_base_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_base_passages" ADD CONSTRAINT "knowledge_base_passages_document_id_knowledge_base_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."knowledge_base_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD CONSTRAINT "knowledge_bases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_base_documents_name_key" ON "knowledge_base_documents" USING btree ("knowledge_base_id","file_name");--> statement-breakpoint
CREATE INDEX "knowledge_base_documents_organization_idx" ON "knowledge_base_documents" USING btree ("organization_id","knowledge_base_id");--> statement-breakpoint
CREATE INDEX "knowledge_base_passages_search_idx" ON "knowledge_base_passages" USING gin ("search");--> statement-breakpoint
CREATE INDEX "knowledge_base_passages_base_idx" ON "knowledge_base_passages" USING btree ("organization_id","knowledge_base_id");--> statement-breakpoint
CREATE INDEX "knowledge_base_passages_document_idx" ON "knowledge_base_passages" USING btree ("document_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_bases_organization_created_idx" ON "knowledge_bases" USING btree ("organization_id","created_at","id");