ALTER TABLE "rtb_notices" ALTER COLUMN "partner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "rtb_notices" ADD COLUMN "prebid_partner_id" bigint;