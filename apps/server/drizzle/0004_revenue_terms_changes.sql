CREATE TABLE "revenue_terms_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_id" bigint,
	"entity_type" text NOT NULL,
	"entity_id" bigint NOT NULL,
	"field" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "revenue_terms_changes" ADD CONSTRAINT "revenue_terms_changes_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "revenue_terms_changes_entity_idx" ON "revenue_terms_changes" USING btree ("entity_type","entity_id","id");