CREATE TABLE "cpm_credits" (
	"hour" timestamp with time zone NOT NULL,
	"widget_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"impressions" bigint NOT NULL,
	"sum" bigint NOT NULL,
	CONSTRAINT "cpm_credits_pk" PRIMARY KEY("hour","widget_id")
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "payment_method_changed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "cpm_credits_site_hour_idx" ON "cpm_credits" USING btree ("site_id","hour");--> statement-breakpoint
UPDATE "sites" SET "payment_method_changed_at" = now() WHERE "payment_method" <> 'revshare';
