CREATE TABLE "click_sources" (
	"hour" timestamp with time zone NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"page" text NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"invalid_clicks" bigint DEFAULT 0 NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clicks" ADD COLUMN "referrer" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "click_sources_key" ON "click_sources" USING btree ("hour","site_id","widget_id","page");--> statement-breakpoint
CREATE INDEX "click_sources_site_hour_idx" ON "click_sources" USING btree ("site_id","hour");--> statement-breakpoint
CREATE INDEX "clicks_site_created_idx" ON "clicks" USING btree ("site_id","created_at");