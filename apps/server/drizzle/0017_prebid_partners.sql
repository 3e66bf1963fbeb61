CREATE TABLE "prebid_partners" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"key" text NOT NULL,
	"bidder_code" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "prebid_stats" (
	"hour" timestamp with time zone NOT NULL,
	"prebid_partner_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"banner_id" bigint NOT NULL,
	"country" text NOT NULL,
	"device" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"bids" bigint DEFAULT 0 NOT NULL,
	"wins" bigint DEFAULT 0 NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "prebid_stats_spent_nonneg" CHECK ("prebid_stats"."spent" >= 0)
);--> statement-breakpoint
CREATE UNIQUE INDEX "prebid_partners_key" ON "prebid_partners" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "prebid_stats_key" ON "prebid_stats" USING btree ("hour","prebid_partner_id","campaign_id","banner_id","country","device");--> statement-breakpoint
CREATE INDEX "prebid_stats_partner_hour_idx" ON "prebid_stats" USING btree ("prebid_partner_id","hour");