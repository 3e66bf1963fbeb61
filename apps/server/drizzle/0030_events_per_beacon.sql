ALTER TABLE "events" ADD COLUMN "campaign_ids" bigint[];--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "banner_ids" bigint[];--> statement-breakpoint
-- the rows written before: one per item, so an array of one
UPDATE "events" SET "campaign_ids" = ARRAY["campaign_id"], "banner_ids" = ARRAY["banner_id"];
