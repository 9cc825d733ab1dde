-- promo schema, version 44: loyalty points buckets (issue 27). Each credit
-- of a card's points is a bucket with what is left of it (left_points) and
-- when it expires (expires_on, the last day; due, the instant it is gone).
-- A card's ACTIVE buckets are read when it spends (the card index) and the
-- due ACTIVE buckets by the expiry job (the due index).
CREATE TABLE promo_loyalty_buckets (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    voucher_id  text COLLATE "C" NOT NULL,
    campaign_id text COLLATE "C" NOT NULL,
    points      bigint NOT NULL,
    left_points bigint NOT NULL,
    status      text COLLATE "C" NOT NULL,
    expires_on  text COLLATE "C",
    due         timestamptz,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_loyalty_buckets_card_idx ON promo_loyalty_buckets (project_id, voucher_id) WHERE status = 'ACTIVE';
CREATE INDEX promo_loyalty_buckets_due_idx ON promo_loyalty_buckets (project_id, due, id) WHERE status = 'ACTIVE' AND due IS NOT NULL;
