-- promo schema, version 25: the customer list and bin (issue 13).
--
-- DELETE /v1/customers/{id} moves a customer to the bin (binned_at): it is
-- no longer read, listed or found by source id, and its source id may name
-- a new customer, so the source id is unique among live customers only.
-- The list filters by the city of the address: a generated column holds
-- it so that it is indexed and compared like any other column. Its total
-- is counted by the promo_count_rows triggers of version 15.

ALTER TABLE promo_customers ADD COLUMN binned_at timestamptz;
ALTER TABLE promo_customers ADD COLUMN city text COLLATE "C" GENERATED ALWAYS AS (address->>'city') STORED;

DROP INDEX promo_customers_source_id_key;
CREATE UNIQUE INDEX promo_customers_source_id_key ON promo_customers (project_id, source_id)
    WHERE source_id IS NOT NULL AND binned_at IS NULL;

CREATE TRIGGER promo_customers_count_insert AFTER INSERT ON promo_customers
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('customers', 'binned_at IS NULL', '');
CREATE TRIGGER promo_customers_count_update AFTER UPDATE ON promo_customers
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('customers', 'binned_at IS NULL', '');
CREATE TRIGGER promo_customers_count_delete AFTER DELETE ON promo_customers
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('customers', 'binned_at IS NULL', '');

INSERT INTO promo_list_counts (project_id, list, scope, stripe, n)
SELECT project_id, 'customers', '', 0, count(*) FROM promo_customers GROUP BY project_id;

-- Every order and filter of customer.ListSpec (source_id: the unique key
-- above).
CREATE INDEX promo_customers_list_created_idx ON promo_customers (project_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_customers_list_updated_idx ON promo_customers (project_id, updated_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_customers_list_source_idx ON promo_customers (project_id, source_id NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_customers_list_email_idx ON promo_customers (project_id, email, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL AND email IS NOT NULL;
CREATE INDEX promo_customers_list_name_idx ON promo_customers (project_id, name, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL AND name IS NOT NULL;
CREATE INDEX promo_customers_list_city_idx ON promo_customers (project_id, city, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL AND city IS NOT NULL;
