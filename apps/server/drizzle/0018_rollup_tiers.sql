CREATE TABLE "rollups_campaign_days" (
	"day" date NOT NULL,
	"campaign_id" bigint NOT NULL,
	"dim" smallint NOT NULL,
	"value" text NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"viewable" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"invalid_clicks" bigint DEFAULT 0 NOT NULL,
	"conversions" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "rollups_campaign_days_pk" PRIMARY KEY("campaign_id","dim","day","value")
);
--> statement-breakpoint
CREATE TABLE "rollups_campaign_hours" (
	"hour" timestamp with time zone NOT NULL,
	"campaign_id" bigint NOT NULL,
	"banner_id" bigint NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"viewable" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"invalid_clicks" bigint DEFAULT 0 NOT NULL,
	"conversions" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "rollups_campaign_hours_pk" PRIMARY KEY("campaign_id","hour","banner_id")
);
--> statement-breakpoint
CREATE TABLE "rollups_site_days" (
	"day" date NOT NULL,
	"site_id" bigint NOT NULL,
	"dim" smallint NOT NULL,
	"value" text NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"viewable" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"invalid_clicks" bigint DEFAULT 0 NOT NULL,
	"conversions" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "rollups_site_days_pk" PRIMARY KEY("site_id","dim","day","value")
);
--> statement-breakpoint
CREATE TABLE "rollups_site_hours" (
	"hour" timestamp with time zone NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"viewable" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"invalid_clicks" bigint DEFAULT 0 NOT NULL,
	"conversions" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "rollups_site_hours_pk" PRIMARY KEY("site_id","hour","widget_id")
);
--> statement-breakpoint
CREATE INDEX "rollups_campaign_hours_banner_idx" ON "rollups_campaign_hours" USING btree ("banner_id","hour");--> statement-breakpoint
CREATE INDEX "rollups_site_hours_widget_idx" ON "rollups_site_hours" USING btree ("widget_id","hour");--> statement-breakpoint
ALTER TABLE "rollups_campaign_hours" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "rollups_site_hours" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "rollups_campaign_days" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "rollups_site_days" SET (fillfactor = 70);--> statement-breakpoint
INSERT INTO "rollups_campaign_hours" ("campaign_id", "hour", "banner_id", "impressions", "viewable", "clicks", "invalid_clicks", "conversions", "spent", "earned")
SELECT "campaign_id", "hour", "banner_id", sum("impressions"), sum("viewable"), sum("clicks"), sum("invalid_clicks"), sum("conversions"), sum("spent"), sum("earned")
FROM "rollups" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "rollups_site_hours" ("site_id", "hour", "widget_id", "impressions", "viewable", "clicks", "invalid_clicks", "conversions", "spent", "earned")
SELECT "site_id", "hour", "widget_id", sum("impressions"), sum("viewable"), sum("clicks"), sum("invalid_clicks"), sum("conversions"), sum("spent"), sum("earned")
FROM "rollups" GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "rollups_campaign_days" ("campaign_id", "dim", "day", "value", "impressions", "viewable", "clicks", "invalid_clicks", "conversions", "spent", "earned")
SELECT r."campaign_id", d."dim", ("hour" AT TIME ZONE 'UTC')::date, d."value", sum("impressions"), sum("viewable"), sum("clicks"), sum("invalid_clicks"), sum("conversions"), sum("spent"), sum("earned")
FROM "rollups" r CROSS JOIN LATERAL (VALUES (1::smallint, r."country")) d("dim", "value")
GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "rollups_site_days" ("site_id", "dim", "day", "value", "impressions", "viewable", "clicks", "invalid_clicks", "conversions", "spent", "earned")
SELECT r."site_id", d."dim", ("hour" AT TIME ZONE 'UTC')::date, d."value", sum("impressions"), sum("viewable"), sum("clicks"), sum("invalid_clicks"), sum("conversions"), sum("spent"), sum("earned")
FROM "rollups" r CROSS JOIN LATERAL (VALUES (1::smallint, r."country")) d("dim", "value")
GROUP BY 1, 2, 3, 4;
