-- promo schema, version 35: the keyset index of voucher transaction
-- exports (exported_object voucher_transactions, order created_at or
-- -created_at), so that each page is read off the index from the cursor.
CREATE INDEX promo_voucher_transactions_created_idx ON promo_voucher_transactions (project_id, created_at NULLS FIRST, id);
