-- promo schema, version 33: the campaigns a qualification offers.
--
-- A qualification reads the campaigns a customer could be given a code of
-- (DISCOUNT_COUPONS and GIFT_VOUCHERS, not STANDALONE, active, live),
-- newest first (created_at descending, id ascending), each joined to its
-- first free voucher through promo_vouchers_free_idx (0022). This index
-- walks them in that order and stops at the page.
CREATE INDEX promo_campaigns_offer_idx ON promo_campaigns (project_id, created_at DESC, id)
    WHERE campaign_type IN ('DISCOUNT_COUPONS', 'GIFT_VOUCHERS') AND type <> 'STANDALONE'
        AND active = 'true' AND binned_at IS NULL;
