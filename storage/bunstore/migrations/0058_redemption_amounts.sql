-- promo schema, version 58: the amounts of a ledger row as columns (issue
-- 29, the campaign summary).
--
-- GET /v1/campaigns/{id}/summary sums the order amount, applied discount,
-- credits and points of a campaign's ledger rows. Read from each row's
-- document (jsonb, a few kilobytes, compressed) the sum took about 2 µs a
-- row; as columns it reads the row alone. Rows written before this version
-- keep NULL (no rewrite of the table): the sum reads their documents.
ALTER TABLE promo_redemptions ADD COLUMN order_amount bigint, ADD COLUMN discount_amount bigint,
    ADD COLUMN credits bigint, ADD COLUMN points bigint;
