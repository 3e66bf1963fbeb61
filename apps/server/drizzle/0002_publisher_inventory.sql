CREATE TABLE "materials" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" bigint NOT NULL,
	"url" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"language" text,
	"published_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotion_pages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"promotion_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"image" text,
	"url" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_groups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"facebook_page_id" text NOT NULL,
	"access_token" text DEFAULT '' NOT NULL,
	"autopublish" boolean DEFAULT false NOT NULL,
	"rights_checked_at" timestamp with time zone,
	"valid_days" integer DEFAULT 3 NOT NULL,
	"use_description" boolean DEFAULT true NOT NULL,
	"category_blacklist" text DEFAULT '' NOT NULL,
	"date_order" text DEFAULT 'desc' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_posts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"group_id" bigint NOT NULL,
	"material_id" bigint NOT NULL,
	"external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "widgets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"processor" text DEFAULT 'default' NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"earn_processor" text DEFAULT 'percent' NOT NULL,
	"earn_value" bigint DEFAULT 50000000 NOT NULL,
	"criteo_type" text,
	"marketplace_url" text,
	"moderation" text DEFAULT 'pending' NOT NULL,
	"moderation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "category" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "timezone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "tags" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "blacklist_words" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "materials_lifetime" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "url_mask" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "use_noindex" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "mark_traffic" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "advanced_stats" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "stats_visible" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "stats_on_scroll" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "strict_items_amount" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "is_infinite" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "payment_method" text DEFAULT 'revshare' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "agency_rate" numeric(5, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "billing_widget" bigint;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "affiliate_user_id" bigint;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "affiliate_earn_percent" numeric(5, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "default_advertorial_url" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "parser" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "moderation" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "parsed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_pages" ADD CONSTRAINT "promotion_pages_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_pages" ADD CONSTRAINT "promotion_pages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_groups" ADD CONSTRAINT "social_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_groups" ADD CONSTRAINT "social_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_posts" ADD CONSTRAINT "social_posts_group_id_social_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."social_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_posts" ADD CONSTRAINT "social_posts_material_id_materials_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."materials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widgets" ADD CONSTRAINT "widgets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "materials_site_url_key" ON "materials" USING btree ("site_id","url");--> statement-breakpoint
CREATE INDEX "materials_expires_idx" ON "materials" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "promotion_pages_promotion_idx" ON "promotion_pages" USING btree ("promotion_id");--> statement-breakpoint
CREATE INDEX "promotions_site_idx" ON "promotions" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "social_groups_site_idx" ON "social_groups" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "social_posts_group_material_key" ON "social_posts" USING btree ("group_id","material_id");--> statement-breakpoint
CREATE INDEX "widgets_site_idx" ON "widgets" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "widgets_user_idx" ON "widgets" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sites_domain_key" ON "sites" USING btree ("domain");