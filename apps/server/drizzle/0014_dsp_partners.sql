CREATE TABLE "dsp_partner_blacklist" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"dsp_partner_id" bigint NOT NULL,
	"source" text NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dsp_partners" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"endpoint" text NOT NULL,
	"openrtb_version" text DEFAULT '2.5' NOT NULL,
	"daily_money_limit" bigint,
	"daily_budget_limit" bigint,
	"max_request_time" integer DEFAULT 300 NOT NULL,
	"whitelist" text[] DEFAULT '{}'::text[] NOT NULL,
	"blacklist" text[] DEFAULT '{}'::text[] NOT NULL,
	"ad_position" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dsp_rollups" (
	"hour" timestamp with time zone NOT NULL,
	"dsp_partner_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"campaign_id" bigint NOT NULL,
	"rtb_partner_id" bigint NOT NULL,
	"country" text NOT NULL,
	"city" text NOT NULL,
	"device" text NOT NULL,
	"os" text NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"bids" bigint DEFAULT 0 NOT NULL,
	"wins" bigint DEFAULT 0 NOT NULL,
	"timeouts" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dsp_partner_blacklist" ADD CONSTRAINT "dsp_partner_blacklist_dsp_partner_id_dsp_partners_id_fk" FOREIGN KEY ("dsp_partner_id") REFERENCES "public"."dsp_partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dsp_partner_blacklist_source" ON "dsp_partner_blacklist" USING btree ("dsp_partner_id","source");--> statement-breakpoint
CREATE UNIQUE INDEX "dsp_rollups_key" ON "dsp_rollups" USING btree ("hour","dsp_partner_id","site_id","widget_id","campaign_id","rtb_partner_id","country","city","device","os");--> statement-breakpoint
CREATE INDEX "dsp_rollups_partner_hour_idx" ON "dsp_rollups" USING btree ("dsp_partner_id","hour");--> statement-breakpoint
-- the outbound auction reads the DSP partners: announce their changes like the tables of 0008
CREATE TRIGGER dsp_partners_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON dsp_partners
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER dsp_partner_blacklist_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON dsp_partner_blacklist
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
