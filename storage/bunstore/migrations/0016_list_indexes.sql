-- promo schema, version 16: counters and list indexes for the other lists
-- that grow with a project's data: campaigns, products, SKUs, orders and
-- async actions (issue 17 item 2; vouchers are in version 15). Customers
-- have no list in the store.
--
-- The counters are those of version 15 (promo_count_rows). Lists that
-- leave the bin out get partial indexes without binned rows; the
-- created_at indexes of version 1-4 that held binned rows are replaced.

CREATE TRIGGER promo_campaigns_count_insert AFTER INSERT ON promo_campaigns
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('campaigns', 'binned_at IS NULL', '');
CREATE TRIGGER promo_campaigns_count_update AFTER UPDATE ON promo_campaigns
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('campaigns', 'binned_at IS NULL', '');
CREATE TRIGGER promo_campaigns_count_delete AFTER DELETE ON promo_campaigns
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('campaigns', 'binned_at IS NULL', '');

CREATE TRIGGER promo_products_count_insert AFTER INSERT ON promo_products
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('products', 'binned_at IS NULL', '');
CREATE TRIGGER promo_products_count_update AFTER UPDATE ON promo_products
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('products', 'binned_at IS NULL', '');
CREATE TRIGGER promo_products_count_delete AFTER DELETE ON promo_products
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('products', 'binned_at IS NULL', '');

CREATE TRIGGER promo_skus_count_insert AFTER INSERT ON promo_skus
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('skus', 'binned_at IS NULL', '');
CREATE TRIGGER promo_skus_count_update AFTER UPDATE ON promo_skus
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('skus', 'binned_at IS NULL', '');
CREATE TRIGGER promo_skus_count_delete AFTER DELETE ON promo_skus
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('skus', 'binned_at IS NULL', '');

-- Orders and async actions have no bin: every row is listed. Their update
-- triggers would only ever add nothing, so there are none.
CREATE TRIGGER promo_orders_count_insert AFTER INSERT ON promo_orders
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('orders', 'TRUE', '');
CREATE TRIGGER promo_orders_count_delete AFTER DELETE ON promo_orders
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('orders', 'TRUE', '');

CREATE TRIGGER promo_async_actions_count_insert AFTER INSERT ON promo_async_actions
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('async_actions', 'TRUE', '');
CREATE TRIGGER promo_async_actions_count_delete AFTER DELETE ON promo_async_actions
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('async_actions', 'TRUE', '');

INSERT INTO promo_list_counts (project_id, list, scope, stripe, n)
SELECT project_id, 'campaigns', '', 0, count(*) FROM promo_campaigns WHERE binned_at IS NULL GROUP BY project_id
UNION ALL
SELECT project_id, 'products', '', 0, count(*) FROM promo_products WHERE binned_at IS NULL GROUP BY project_id
UNION ALL
SELECT project_id, 'skus', '', 0, count(*) FROM promo_skus WHERE binned_at IS NULL GROUP BY project_id
UNION ALL
SELECT project_id, 'orders', '', 0, count(*) FROM promo_orders GROUP BY project_id
UNION ALL
SELECT project_id, 'async_actions', '', 0, count(*) FROM promo_async_actions GROUP BY project_id;

-- Campaigns: every order and filter of campaign.ListSpec (name:
-- promo_campaigns_name_key).
DROP INDEX promo_campaigns_created_idx;
CREATE INDEX promo_campaigns_list_created_idx ON promo_campaigns (project_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_list_updated_idx ON promo_campaigns (project_id, updated_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_list_campaign_type_idx ON promo_campaigns (project_id, campaign_type, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_list_type_idx ON promo_campaigns (project_id, type, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_list_category_idx ON promo_campaigns (project_id, category_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL AND category_id IS NOT NULL;
CREATE INDEX promo_campaigns_list_creation_status_idx ON promo_campaigns (project_id, creation_status, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_list_generation_status_idx ON promo_campaigns (project_id, vouchers_generation_status, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_list_voucher_type_idx ON promo_campaigns (project_id, voucher_type, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL AND voucher_type IS NOT NULL;
CREATE INDEX promo_campaigns_list_active_idx ON promo_campaigns (project_id, active, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_list_referral_idx ON promo_campaigns (project_id, is_referral_code, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_list_start_idx ON promo_campaigns (project_id, start_date)
    WHERE binned_at IS NULL AND start_date IS NOT NULL;
CREATE INDEX promo_campaigns_list_expiration_idx ON promo_campaigns (project_id, expiration_date)
    WHERE binned_at IS NULL AND expiration_date IS NOT NULL;

-- Products and SKUs: created_at and updated_at orders; source_id
-- (promo_*_source_id_key), name and sku filters; a product's SKUs.
DROP INDEX promo_products_created_idx;
CREATE INDEX promo_products_list_created_idx ON promo_products (project_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_products_list_updated_idx ON promo_products (project_id, updated_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_products_list_name_idx ON promo_products (project_id, name)
    WHERE binned_at IS NULL AND name IS NOT NULL;
DROP INDEX promo_skus_created_idx;
DROP INDEX promo_skus_product_idx;
CREATE INDEX promo_skus_list_created_idx ON promo_skus (project_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_skus_list_updated_idx ON promo_skus (project_id, updated_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_skus_list_product_idx ON promo_skus (project_id, product_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_skus_list_sku_idx ON promo_skus (project_id, sku)
    WHERE binned_at IS NULL AND sku IS NOT NULL;

-- Orders: created_at (promo_orders_created_idx), customer_id
-- (promo_orders_customer_idx) and source_id (promo_orders_source_id_key)
-- exist; updated_at, status and referrer_id.
CREATE INDEX promo_orders_list_updated_idx ON promo_orders (project_id, updated_at NULLS FIRST, id);
CREATE INDEX promo_orders_list_status_idx ON promo_orders (project_id, status, created_at NULLS FIRST, id);
CREATE INDEX promo_orders_list_referrer_idx ON promo_orders (project_id, referrer_id, created_at NULLS FIRST, id)
    WHERE referrer_id IS NOT NULL;

-- Async actions: created_at (promo_async_actions_created_idx) exists;
-- updated_at, type and status.
CREATE INDEX promo_async_actions_list_updated_idx ON promo_async_actions (project_id, updated_at NULLS FIRST, id);
CREATE INDEX promo_async_actions_list_type_idx ON promo_async_actions (project_id, type, created_at NULLS FIRST, id);
CREATE INDEX promo_async_actions_list_status_idx ON promo_async_actions (project_id, status, created_at NULLS FIRST, id);
