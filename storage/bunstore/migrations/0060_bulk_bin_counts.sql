-- promo schema, version 60: a bulk bin of vouchers counts its list change
-- once per statement, not once per row (issue 31 item 7).
--
-- Version 40 counts binned, restored and moved vouchers with a row-level
-- trigger, so that the many updates that move nothing (spends,
-- publications) run no trigger at all. A bin of a whole campaign's
-- vouchers (the CAMPAIGN.VOUCHERS_DELETE action, 10,000 a statement) then
-- upserted the same counter row once per voucher: a chunk took over 5 s,
-- past the query deadline, and a campaign of 1,000,000 over 11 minutes.
--
-- The bulk bin now counts its rows itself, in the statement that bins them
-- (one upsert per project and campaign), and marks its transaction with
-- the setting promo.bulk_counts = 'on' (set_config(..., true): until the
-- transaction ends, and the store sets it back to 'off' right after the
-- statement), which the trigger's WHEN clause reads so that it queues no
-- event for those rows. Every other update counts as before: the setting
-- is unset (NULL) or 'off'.
DROP TRIGGER promo_vouchers_count_move ON promo_vouchers;
CREATE TRIGGER promo_vouchers_count_move AFTER UPDATE ON promo_vouchers
    FOR EACH ROW
    WHEN (((OLD.binned_at IS NULL) IS DISTINCT FROM (NEW.binned_at IS NULL)
           OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id
           OR OLD.project_id IS DISTINCT FROM NEW.project_id)
          AND current_setting('promo.bulk_counts', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION promo_count_voucher_move();
