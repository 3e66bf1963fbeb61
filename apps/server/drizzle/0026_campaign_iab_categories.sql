ALTER TABLE "campaigns" ADD COLUMN "iab_categories" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- the bidder read IAB codes out of the free-text sub-category until now: carry them over, upper-cased, once each
UPDATE "campaigns" SET "iab_categories" = (
	SELECT coalesce(jsonb_agg(DISTINCT m[1]), '[]'::jsonb)
	FROM regexp_matches(upper("sub_category"), '\m(IAB\d{1,2}(?:-\d{1,3})?)\M', 'g') AS m
) WHERE "sub_category" ~* 'IAB\d';
