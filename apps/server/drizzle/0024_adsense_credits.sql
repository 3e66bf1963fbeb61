CREATE TABLE "adsense_credits" (
	"site_id" bigint NOT NULL,
	"date" text NOT NULL,
	"import_id" bigint NOT NULL,
	CONSTRAINT "adsense_credits_site_id_date_pk" PRIMARY KEY("site_id","date")
);
--> statement-breakpoint
ALTER TABLE "adsense_credits" ADD CONSTRAINT "adsense_credits_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adsense_credits" ADD CONSTRAINT "adsense_credits_import_id_adsense_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."adsense_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "adsense_credits" ("site_id", "date", "import_id")
SELECT DISTINCT ON (i."site_id", i."date") i."site_id", i."date", i."import_id"
FROM "adsense_incomes" i JOIN "adsense_imports" m ON m."id" = i."import_id"
WHERE m."status" = 'approved' AND i."site_income" IS NOT NULL AND i."site_id" IS NOT NULL AND i."date" IS NOT NULL
ORDER BY i."site_id", i."date", i."import_id";
