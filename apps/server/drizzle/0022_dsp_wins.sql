CREATE TABLE "dsp_wins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"win_id" text NOT NULL,
	"dsp_partner_id" bigint NOT NULL,
	"site_id" bigint NOT NULL,
	"widget_id" bigint NOT NULL,
	"revenue" bigint NOT NULL,
	"publisher_earned" bigint NOT NULL,
	"agency_earned" bigint NOT NULL,
	"referral_earned" bigint NOT NULL,
	"platform_earned" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "dsp_wins_win_key" ON "dsp_wins" USING btree ("win_id");--> statement-breakpoint
CREATE INDEX "dsp_wins_partner_created_idx" ON "dsp_wins" USING btree ("dsp_partner_id","created_at");