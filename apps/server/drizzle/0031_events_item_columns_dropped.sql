ALTER TABLE "events" ALTER COLUMN "campaign_ids" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "banner_ids" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "campaign_id";--> statement-breakpoint
ALTER TABLE "events" DROP COLUMN "banner_id";