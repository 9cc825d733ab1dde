-- promo schema, version 11: stacking rules, at most one document per project
-- (key: the constant 'stacking_rules').
CREATE TABLE promo_stacking_rules (LIKE promo_webhooks INCLUDING ALL);
CREATE UNIQUE INDEX promo_stacking_rules_key ON promo_stacking_rules (project_id, key);
