-- promo schema, version 40: a voucher update that moves no voucher between
-- lists runs no list-count trigger (issue 15, redemption throughput).
--
-- Version 15's statement-level AFTER UPDATE trigger ran on every update of
-- promo_vouchers: each redemption's spend (redeemed_quantity, balances),
-- each publication (holder_id), each reservation. PostgreSQL kept the old
-- and new rows of the statement as transition tables and PL/pgSQL summed
-- them to nothing. An UPDATE trigger with transition tables cannot name
-- columns, so the counting of updates moves to a row-level trigger whose
-- WHEN clause PostgreSQL evaluates without calling any function: only a
-- row that is binned, restored or moved to another campaign counts, as -1
-- in the lists it leaves and +1 in those it enters (the project's list,
-- scope '', and its campaign's, 'campaign_id=<id>'; a voucher without a
-- campaign is in the project's list only). A bin of many vouchers
-- (BinCampaignVouchers, by chunks) now adds its rows one by one, on the
-- transaction's one stripe. Inserts and deletes keep their statement-level
-- triggers.
CREATE OR REPLACE FUNCTION promo_count_voucher_move() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $fn$
BEGIN
    INSERT INTO promo_list_counts AS c (project_id, list, scope, stripe, n)
    SELECT r.project_id, 'vouchers', k.scope, (txid_current() % 64)::smallint, sum(r.d)
    FROM (VALUES (OLD.project_id, OLD.campaign_id, OLD.binned_at IS NULL, -1),
                 (NEW.project_id, NEW.campaign_id, NEW.binned_at IS NULL, 1)) AS r(project_id, campaign_id, listed, d)
    CROSS JOIN LATERAL (VALUES (''), ('campaign_id=' || r.campaign_id)) AS k(scope)
    WHERE r.listed AND k.scope IS NOT NULL
    GROUP BY r.project_id, k.scope
    HAVING sum(r.d) <> 0
    ORDER BY r.project_id, k.scope
    ON CONFLICT (project_id, list, scope, stripe) DO UPDATE SET n = c.n + excluded.n;
    RETURN NULL;
END
$fn$;

DROP TRIGGER promo_vouchers_count_update ON promo_vouchers;
CREATE TRIGGER promo_vouchers_count_move AFTER UPDATE ON promo_vouchers
    FOR EACH ROW
    WHEN ((OLD.binned_at IS NULL) IS DISTINCT FROM (NEW.binned_at IS NULL)
          OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id
          OR OLD.project_id IS DISTINCT FROM NEW.project_id)
    EXECUTE FUNCTION promo_count_voucher_move();
