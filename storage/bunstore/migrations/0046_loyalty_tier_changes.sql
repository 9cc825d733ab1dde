-- promo schema, version 46: tier changes earning rules have yet to earn on
-- (issue 27). A change of a member's tier records one in its transaction
-- when a rule earns on its event; the scheduler earns on it after that
-- transaction commits and deletes it in the transaction that earns.
CREATE TABLE promo_loyalty_tier_changes (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    voucher_id  text COLLATE "C" NOT NULL,
    customer_id text COLLATE "C" NOT NULL,
    campaign_id text COLLATE "C" NOT NULL,
    tier_id     text COLLATE "C" NOT NULL,
    event       text COLLATE "C" NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_loyalty_tier_changes_order_idx ON promo_loyalty_tier_changes (project_id, created_at, id);
