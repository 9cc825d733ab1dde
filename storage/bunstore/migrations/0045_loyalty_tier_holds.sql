-- promo schema, version 45: the tier each loyalty card holds (issue 27).
-- One row per card: its tier, the first day it counts (start_date) and the
-- last (expiration_date; due, the instant it ends, read by the scheduler
-- through the due index). The collected index sums the points a card
-- collected in a period (POINTS_IN_PERIOD tiers).
CREATE TABLE promo_loyalty_tier_holds (
    project_id      text COLLATE "C" NOT NULL,
    voucher_id      text COLLATE "C" NOT NULL,
    campaign_id     text COLLATE "C" NOT NULL,
    customer_id     text COLLATE "C" NOT NULL,
    tier_id         text COLLATE "C" NOT NULL,
    start_date      text COLLATE "C" NOT NULL,
    expiration_date text COLLATE "C",
    due             timestamptz,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (project_id, voucher_id)
);
CREATE INDEX promo_loyalty_tier_holds_due_idx ON promo_loyalty_tier_holds (project_id, due) WHERE due IS NOT NULL;
CREATE INDEX promo_loyalty_buckets_collected_idx ON promo_loyalty_buckets (project_id, voucher_id, created_at);
