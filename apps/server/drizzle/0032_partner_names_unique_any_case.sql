-- DSP, Prebid and RTB partners are named once, in any case: names that clash (the same name in another case,
-- or the same name twice where nothing stopped it) get their id appended, oldest kept as it is.
UPDATE "dsp_partners" d SET "name" = d."name" || ' (' || d."id" || ')'
  WHERE EXISTS (SELECT 1 FROM "dsp_partners" o WHERE lower(o."name") = lower(d."name") AND o."id" < d."id");--> statement-breakpoint
UPDATE "prebid_partners" d SET "name" = d."name" || ' (' || d."id" || ')'
  WHERE EXISTS (SELECT 1 FROM "prebid_partners" o WHERE lower(o."name") = lower(d."name") AND o."id" < d."id");--> statement-breakpoint
UPDATE "rtb_partners" d SET "name" = d."name" || ' (' || d."id" || ')'
  WHERE EXISTS (SELECT 1 FROM "rtb_partners" o WHERE lower(o."name") = lower(d."name") AND o."id" < d."id");--> statement-breakpoint
DROP INDEX "rtb_partners_name_key";--> statement-breakpoint
CREATE UNIQUE INDEX "dsp_partners_name_key" ON "dsp_partners" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "prebid_partners_name_key" ON "prebid_partners" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_partners_name_key" ON "rtb_partners" USING btree (lower("name"));