CREATE TABLE "banners" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"targeting" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"images" jsonb,
	"video" text,
	"moderation" text DEFAULT 'pending' NOT NULL,
	"moderation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" bigint NOT NULL,
	"type" text NOT NULL,
	"sum" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"actor_id" bigint,
	"ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "landing_leads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"landing_id" bigint NOT NULL,
	"data" jsonb NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "landings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'inactive' NOT NULL,
	"headline" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"form" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"html" text,
	"generated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pixel_visitors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pixel_id" bigint NOT NULL,
	"visitor_id" text NOT NULL,
	"last_url" text DEFAULT '' NOT NULL,
	"visits" integer DEFAULT 1 NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pixels" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"all_pages" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "adstype" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "clickprice" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "dailyclicks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "weight" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "click_filter" text DEFAULT 'onetoone' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "utm" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "track_urls" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "src_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "site_id" bigint;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "widget_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "brand_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "sub_category" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "cpc_feed_processor" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "hide_clicks_sites" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "on_image_load" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "openrtb" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "target_ctr_status" text DEFAULT 'unchecked' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "target_ctr_check_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ip_ranges" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "moderation" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_ledger" ADD CONSTRAINT "campaign_ledger_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "landing_leads" ADD CONSTRAINT "landing_leads_landing_id_landings_id_fk" FOREIGN KEY ("landing_id") REFERENCES "public"."landings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "landings" ADD CONSTRAINT "landings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pixel_visitors" ADD CONSTRAINT "pixel_visitors_pixel_id_pixels_id_fk" FOREIGN KEY ("pixel_id") REFERENCES "public"."pixels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pixels" ADD CONSTRAINT "pixels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "banners_campaign_idx" ON "banners" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "banners_user_idx" ON "banners" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "campaign_ledger_campaign_idx" ON "campaign_ledger" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "landing_leads_landing_idx" ON "landing_leads" USING btree ("landing_id","created_at");--> statement-breakpoint
CREATE INDEX "landings_user_idx" ON "landings" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "landings_slug_key" ON "landings" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "pixel_visitors_key" ON "pixel_visitors" USING btree ("pixel_id","visitor_id");--> statement-breakpoint
CREATE INDEX "pixel_visitors_visitor_idx" ON "pixel_visitors" USING btree ("visitor_id");--> statement-breakpoint
CREATE INDEX "pixels_user_idx" ON "pixels" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_title_key" ON "campaigns" USING btree (lower("title"));--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_balance_nonnegative" CHECK ("campaigns"."balance" >= 0);