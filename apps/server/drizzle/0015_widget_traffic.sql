CREATE TABLE "material_stats" (
	"hour" timestamp with time zone NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"material_id" bigint NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE TABLE "widget_traffic" (
	"hour" timestamp with time zone NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"rendered" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "material_stats_key" ON "material_stats" USING btree ("hour","site_id","widget_id","material_id");--> statement-breakpoint
CREATE INDEX "material_stats_site_hour_idx" ON "material_stats" USING btree ("site_id","hour");--> statement-breakpoint
CREATE UNIQUE INDEX "widget_traffic_key" ON "widget_traffic" USING btree ("hour","site_id","widget_id");--> statement-breakpoint
CREATE INDEX "widget_traffic_site_hour_idx" ON "widget_traffic" USING btree ("site_id","hour");