-- DSP, Prebid and RTB partners are named once, in any case: names that clash (the same name in another case,
-- or the same name twice where nothing stopped it) get their id appended (and a number, should that name be
-- taken too), the oldest keeping its name; a name stays within 255 characters.
CREATE FUNCTION adp_rename_name_clashes(tbl regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
  candidate text;
  n int;
  taken boolean;
BEGIN
  FOR r IN EXECUTE format(
    'SELECT d.id, d.name FROM %s d WHERE EXISTS (SELECT 1 FROM %s o WHERE lower(o.name) = lower(d.name) AND o.id < d.id) ORDER BY d.id',
    tbl, tbl)
  LOOP
    n := 0;
    LOOP
      candidate := left(r.name, 230) || ' (' || r.id || CASE WHEN n > 0 THEN '-' || n ELSE '' END || ')';
      EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE lower(name) = lower($1))', tbl) INTO taken USING candidate;
      EXIT WHEN NOT taken;
      n := n + 1;
    END LOOP;
    EXECUTE format('UPDATE %s SET name = $1 WHERE id = $2', tbl) USING candidate, r.id;
  END LOOP;
END $$;--> statement-breakpoint
SELECT adp_rename_name_clashes('dsp_partners');--> statement-breakpoint
SELECT adp_rename_name_clashes('prebid_partners');--> statement-breakpoint
SELECT adp_rename_name_clashes('rtb_partners');--> statement-breakpoint
DROP FUNCTION adp_rename_name_clashes(regclass);--> statement-breakpoint
DROP INDEX "rtb_partners_name_key";--> statement-breakpoint
CREATE UNIQUE INDEX "dsp_partners_name_key" ON "dsp_partners" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "prebid_partners_name_key" ON "prebid_partners" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "rtb_partners_name_key" ON "rtb_partners" USING btree (lower("name"));