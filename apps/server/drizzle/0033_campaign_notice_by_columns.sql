-- A click charge updates only campaigns' balances, and 0028's WHEN clause built a JSON record of every
-- debited campaign row to learn that (about 10 µs a row, a tenth of the charge in the database). Two triggers
-- now decide by the columns an UPDATE sets, which PostgreSQL knows without reading the row: one for the
-- columns other than the balance (and updated_at), whose function compares the rows as before, and one for
-- the balance, announcing only a campaign that became funded or unfunded. A column added to campaigns must
-- join the first list (a test compares it with the table).
DROP TRIGGER campaigns_delivery_notice_update ON campaigns;
--> statement-breakpoint
CREATE TRIGGER campaigns_delivery_notice_update AFTER UPDATE OF
  user_id, title, status, created_at, adstype, clickprice, dailyclicks, weight, click_filter, utm, track_urls,
  src_code, site_id, widget_ids, brand_name, sub_category, cpc_feed_processor, hide_clicks_sites, on_image_load,
  openrtb, target_ctr_status, target_ctr_check_date, ip_ranges, moderation, moderation_reason, daily_budget,
  pacing, iab_categories
  ON campaigns FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER campaigns_delivery_notice_balance AFTER UPDATE OF balance ON campaigns
  FOR EACH ROW
  WHEN ((OLD.balance >= OLD.clickprice) IS DISTINCT FROM (NEW.balance >= NEW.clickprice))
  EXECUTE FUNCTION adp_delivery_notice();
