CREATE TABLE "adsense_imports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"uploaded_by" bigint,
	"approved_by" bigint,
	"approved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "adsense_incomes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"import_id" bigint NOT NULL,
	"line" integer NOT NULL,
	"date" text,
	"source" text DEFAULT '' NOT NULL,
	"site_id" bigint,
	"page_views" bigint DEFAULT 0 NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"site_income" bigint,
	"own_income" bigint,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "adsense_incomes_revenue_nonneg" CHECK ("adsense_incomes"."revenue" >= 0)
);
--> statement-breakpoint
ALTER TABLE "adsense_imports" ADD CONSTRAINT "adsense_imports_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adsense_imports" ADD CONSTRAINT "adsense_imports_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adsense_incomes" ADD CONSTRAINT "adsense_incomes_import_id_adsense_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."adsense_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adsense_incomes" ADD CONSTRAINT "adsense_incomes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "adsense_imports_created_idx" ON "adsense_imports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "adsense_incomes_import_idx" ON "adsense_incomes" USING btree ("import_id","line");--> statement-breakpoint
CREATE INDEX "adsense_incomes_site_date_idx" ON "adsense_incomes" USING btree ("site_id","date");