DROP INDEX "rollups_key";--> statement-breakpoint
ALTER TABLE "clicks" ADD COLUMN "city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "rollups" ADD COLUMN "city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "timezone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "stats_available_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "rollups_key" ON "rollups" USING btree ("hour","campaign_id","banner_id","site_id","widget_id","country","city","device","os","browser");