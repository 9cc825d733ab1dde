-- promo schema, version 24: qualifications.
--
-- A qualification reads the public vouchers of a project: those without a
-- holder under no campaign or under a STANDALONE campaign. The vouchers
-- come from promo_vouchers_free_idx (0022) per campaign id (NULL
-- included); this index finds a project's STANDALONE campaigns without
-- reading its other campaigns. The customer's wallet comes from
-- promo_holders_customer_idx (0022).
CREATE INDEX promo_campaigns_standalone_idx ON promo_campaigns (project_id, id)
    WHERE type = 'STANDALONE' AND binned_at IS NULL;
