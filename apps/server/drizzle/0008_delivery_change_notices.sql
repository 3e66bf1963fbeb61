-- Delivery keeps an in-memory ad index; every instance rebuilds it when something it reads changes.
-- Row triggers announce such changes on the channel adp_delivery (delivered at commit). A click's
-- balance debit is not a change of what delivery serves unless the campaign stops being funded.
CREATE OR REPLACE FUNCTION adp_delivery_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- nested IFs: a record's fields may be read only once its table is known
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'campaigns' THEN
    IF (to_jsonb(OLD) - 'balance' - 'updated_at') = (to_jsonb(NEW) - 'balance' - 'updated_at')
       AND (OLD.balance >= OLD.clickprice) = (NEW.balance >= NEW.clickprice) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'users' THEN
    IF OLD.role IS NOT DISTINCT FROM NEW.role
       AND OLD.referrer_id IS NOT DISTINCT FROM NEW.referrer_id
       AND OLD.earn_percent IS NOT DISTINCT FROM NEW.earn_percent THEN
      RETURN NULL;
    END IF;
  END IF;
  PERFORM pg_notify('adp_delivery', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER campaigns_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER banners_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON banners
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER widgets_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON widgets
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER sites_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON sites
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER agencies_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON agencies
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER agency_members_delivery_notice AFTER INSERT OR UPDATE OR DELETE ON agency_members
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER users_delivery_notice AFTER UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
