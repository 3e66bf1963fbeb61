-- The delivery notice triggers (0008) called their function for every updated row, and for a campaign it
-- compared the whole row as JSON (to_jsonb twice): about a third of a click charge's time in the database,
-- which debits every charged campaign and credits its publisher. The same decisions now sit in WHEN
-- clauses, which PostgreSQL evaluates without calling the function: a campaign row that only changed its
-- balance (and updated_at), staying funded or unfunded, and a user row whose role, referrer and earn
-- percent stayed, announce nothing, as before.
DROP TRIGGER campaigns_delivery_notice ON campaigns;
--> statement-breakpoint
CREATE TRIGGER campaigns_delivery_notice AFTER INSERT OR DELETE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
CREATE TRIGGER campaigns_delivery_notice_update AFTER UPDATE ON campaigns
  FOR EACH ROW
  WHEN ((OLD.balance >= OLD.clickprice) IS DISTINCT FROM (NEW.balance >= NEW.clickprice)
        -- every other column: the new row with the old balance and updated_at must equal the old row
        OR OLD IS DISTINCT FROM jsonb_populate_record(NEW,
             jsonb_build_object('balance', OLD.balance, 'updated_at', OLD.updated_at)))
  EXECUTE FUNCTION adp_delivery_notice();
--> statement-breakpoint
DROP TRIGGER users_delivery_notice ON users;
--> statement-breakpoint
CREATE TRIGGER users_delivery_notice AFTER UPDATE ON users
  FOR EACH ROW
  WHEN (OLD.role IS DISTINCT FROM NEW.role
        OR OLD.referrer_id IS DISTINCT FROM NEW.referrer_id
        OR OLD.earn_percent IS DISTINCT FROM NEW.earn_percent)
  EXECUTE FUNCTION adp_delivery_notice();
