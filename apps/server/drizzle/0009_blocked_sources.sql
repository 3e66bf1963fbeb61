CREATE TABLE "blocked_sources" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" bigint,
	"site_id" bigint,
	"widget_id" bigint,
	"reason" text DEFAULT '' NOT NULL,
	"until" timestamp with time zone,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "blocked_sources_one_source" CHECK (("blocked_sources"."site_id" is null) <> ("blocked_sources"."widget_id" is null))
);
--> statement-breakpoint
ALTER TABLE "blocked_sources" ADD CONSTRAINT "blocked_sources_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_sources" ADD CONSTRAINT "blocked_sources_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_sources" ADD CONSTRAINT "blocked_sources_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "blocked_sources" ADD CONSTRAINT "blocked_sources_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blocked_sources_campaign_idx" ON "blocked_sources" USING btree ("campaign_id","id");--> statement-breakpoint
CREATE INDEX "blocked_sources_site_idx" ON "blocked_sources" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "blocked_sources_widget_idx" ON "blocked_sources" USING btree ("widget_id");--> statement-breakpoint
-- a block changes what delivery serves: announce it like the tables of 0008
CREATE TRIGGER blocked_sources_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON blocked_sources
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
