CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"user_id" bigint,
	"campaign_id" bigint,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"price" bigint,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rtb_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bid_id" text NOT NULL,
	"kind" text NOT NULL,
	"partner_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"banner_id" bigint NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"price" bigint NOT NULL,
	"charged" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rtb_partners" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"key" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"max_request_ms" integer DEFAULT 200 NOT NULL,
	"daily_limit" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rtb_sources" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"partner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rtb_stats" (
	"hour" timestamp with time zone NOT NULL,
	"partner_id" bigint NOT NULL,
	"source_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"banner_id" bigint NOT NULL,
	"wins" bigint DEFAULT 0 NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"spent" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "rtb_stats_spent_nonneg" CHECK ("rtb_stats"."spent" >= 0)
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_notices" ADD CONSTRAINT "rtb_notices_partner_id_rtb_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."rtb_partners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_notices" ADD CONSTRAINT "rtb_notices_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_notices" ADD CONSTRAINT "rtb_notices_banner_id_banners_id_fk" FOREIGN KEY ("banner_id") REFERENCES "public"."banners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rtb_sources" ADD CONSTRAINT "rtb_sources_partner_id_rtb_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."rtb_partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_created_idx" ON "notifications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_notices_bid_kind" ON "rtb_notices" USING btree ("bid_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_partners_key" ON "rtb_partners" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_partners_name_key" ON "rtb_partners" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_sources_key" ON "rtb_sources" USING btree ("partner_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_stats_key" ON "rtb_stats" USING btree ("hour","partner_id","source_id","campaign_id","banner_id");--> statement-breakpoint
CREATE INDEX "rtb_stats_campaign_idx" ON "rtb_stats" USING btree ("campaign_id","hour");--> statement-breakpoint
CREATE INDEX "rtb_stats_banner_idx" ON "rtb_stats" USING btree ("banner_id","hour");