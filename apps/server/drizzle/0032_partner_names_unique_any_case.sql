-- DSP, Prebid and RTB partners are named once, in any case: names that clash (the same name in another case,
-- or the same name twice where nothing stopped it) get their id appended (and a number, should that name be
-- taken too), the oldest keeping its name; a name stays within 255 characters.
DO $$
DECLARE
  r record;
  candidate text;
  n int;
BEGIN
  FOR r IN SELECT d.id, d.name FROM "dsp_partners" d
    WHERE EXISTS (SELECT 1 FROM "dsp_partners" o WHERE lower(o.name) = lower(d.name) AND o.id < d.id)
    ORDER BY d.id
  LOOP
    n := 0;
    LOOP
      candidate := left(r.name, 230) || ' (' || r.id || CASE WHEN n > 0 THEN '-' || n ELSE '' END || ')';
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "dsp_partners" WHERE lower(name) = lower(candidate));
      n := n + 1;
    END LOOP;
    UPDATE "dsp_partners" SET name = candidate WHERE id = r.id;
  END LOOP;
END $$;--> statement-breakpoint
DO $$
DECLARE
  r record;
  candidate text;
  n int;
BEGIN
  FOR r IN SELECT d.id, d.name FROM "prebid_partners" d
    WHERE EXISTS (SELECT 1 FROM "prebid_partners" o WHERE lower(o.name) = lower(d.name) AND o.id < d.id)
    ORDER BY d.id
  LOOP
    n := 0;
    LOOP
      candidate := left(r.name, 230) || ' (' || r.id || CASE WHEN n > 0 THEN '-' || n ELSE '' END || ')';
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "prebid_partners" WHERE lower(name) = lower(candidate));
      n := n + 1;
    END LOOP;
    UPDATE "prebid_partners" SET name = candidate WHERE id = r.id;
  END LOOP;
END $$;--> statement-breakpoint
DO $$
DECLARE
  r record;
  candidate text;
  n int;
BEGIN
  FOR r IN SELECT d.id, d.name FROM "rtb_partners" d
    WHERE EXISTS (SELECT 1 FROM "rtb_partners" o WHERE lower(o.name) = lower(d.name) AND o.id < d.id)
    ORDER BY d.id
  LOOP
    n := 0;
    LOOP
      candidate := left(r.name, 230) || ' (' || r.id || CASE WHEN n > 0 THEN '-' || n ELSE '' END || ')';
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "rtb_partners" WHERE lower(name) = lower(candidate));
      n := n + 1;
    END LOOP;
    UPDATE "rtb_partners" SET name = candidate WHERE id = r.id;
  END LOOP;
END $$;--> statement-breakpoint
DROP INDEX "rtb_partners_name_key";--> statement-breakpoint
CREATE UNIQUE INDEX "dsp_partners_name_key" ON "dsp_partners" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "prebid_partners_name_key" ON "prebid_partners" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_partners_name_key" ON "rtb_partners" USING btree (lower("name"));