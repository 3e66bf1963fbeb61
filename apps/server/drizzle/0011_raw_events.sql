CREATE TABLE "events" (
	"at" timestamp with time zone NOT NULL,
	"campaign_id" bigint NOT NULL,
	"banner_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"kind" smallint NOT NULL,
	"country" text NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"device" text NOT NULL,
	"os" text NOT NULL,
	"browser" text NOT NULL,
	"visitor_id" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "events_at_brin" ON "events" USING brin ("at");