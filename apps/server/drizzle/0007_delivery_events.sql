CREATE TABLE "click_rejections" (
	"hour" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clicks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"click_id" text NOT NULL,
	"token_key" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"campaign_id" bigint NOT NULL,
	"banner_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"visitor_id" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"device" text DEFAULT '' NOT NULL,
	"os" text DEFAULT '' NOT NULL,
	"browser" text DEFAULT '' NOT NULL,
	"price" bigint DEFAULT 0 NOT NULL,
	"publisher_earned" bigint DEFAULT 0 NOT NULL,
	"agency_earned" bigint DEFAULT 0 NOT NULL,
	"referral_earned" bigint DEFAULT 0 NOT NULL,
	"platform_earned" bigint DEFAULT 0 NOT NULL,
	"converted_at" timestamp with time zone,
	"conversion_sum" bigint,
	"conversion_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"sum" bigint NOT NULL,
	"ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rollups" (
	"hour" timestamp with time zone NOT NULL,
	"campaign_id" bigint NOT NULL,
	"banner_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"country" text NOT NULL,
	"device" text NOT NULL,
	"os" text NOT NULL,
	"browser" text NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"viewable" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"invalid_clicks" bigint DEFAULT 0 NOT NULL,
	"conversions" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "daily_budget" bigint;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "pacing" text DEFAULT 'even' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "click_rejections_key" ON "click_rejections" USING btree ("hour","reason");--> statement-breakpoint
CREATE UNIQUE INDEX "clicks_token_key" ON "clicks" USING btree ("token_key");--> statement-breakpoint
CREATE UNIQUE INDEX "clicks_click_id_key" ON "clicks" USING btree ("click_id");--> statement-breakpoint
CREATE INDEX "clicks_campaign_created_idx" ON "clicks" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "clicks_widget_created_idx" ON "clicks" USING btree ("widget_id","created_at");--> statement-breakpoint
CREATE INDEX "platform_ledger_created_idx" ON "platform_ledger" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rollups_key" ON "rollups" USING btree ("hour","campaign_id","banner_id","site_id","widget_id","country","device","os","browser");--> statement-breakpoint
CREATE INDEX "rollups_campaign_hour_idx" ON "rollups" USING btree ("campaign_id","hour");--> statement-breakpoint
CREATE INDEX "rollups_banner_hour_idx" ON "rollups" USING btree ("banner_id","hour");--> statement-breakpoint
CREATE INDEX "rollups_site_hour_idx" ON "rollups" USING btree ("site_id","hour");--> statement-breakpoint
CREATE INDEX "rollups_widget_hour_idx" ON "rollups" USING btree ("widget_id","hour");