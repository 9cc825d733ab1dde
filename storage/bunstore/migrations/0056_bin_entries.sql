-- promo schema, version 56: the bin list (issue 29, GET /v1/trash-bin).
--
-- The bin is not a table: its entries are the binned campaigns, vouchers,
-- products and SKUs (binned_at set). These partial indexes hold the binned
-- rows alone, so listing the bin reads them without the live rows.
CREATE INDEX promo_campaigns_binned_idx ON promo_campaigns (project_id, id) WHERE binned_at IS NOT NULL;
CREATE INDEX promo_vouchers_binned_idx ON promo_vouchers (project_id, id) WHERE binned_at IS NOT NULL;
CREATE INDEX promo_products_binned_idx ON promo_products (project_id, id) WHERE binned_at IS NOT NULL;
CREATE INDEX promo_skus_binned_idx ON promo_skus (project_id, id) WHERE binned_at IS NOT NULL;
