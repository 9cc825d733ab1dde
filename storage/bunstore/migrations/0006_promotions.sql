-- promo schema, version 6: promotion tiers and stacks.

CREATE TABLE promo_promotion_tiers (
    project_id      text COLLATE "C" NOT NULL,
    id              text COLLATE "C" NOT NULL,
    campaign_id     text COLLATE "C" NOT NULL,
    active          text NOT NULL,
    doc             jsonb NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz,
    expiration_date timestamptz,
    PRIMARY KEY (project_id, id)
);
-- Tier lists run per campaign and per project in creation order.
CREATE INDEX promo_promotion_tiers_campaign_idx ON promo_promotion_tiers (project_id, campaign_id, created_at, id);
CREATE INDEX promo_promotion_tiers_created_idx ON promo_promotion_tiers (project_id, created_at NULLS FIRST, id);

CREATE TABLE promo_promotion_stacks (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    campaign_id text COLLATE "C" NOT NULL,
    name        text COLLATE "C" NOT NULL,
    doc         jsonb NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_promotion_stacks_campaign_idx ON promo_promotion_stacks (project_id, campaign_id, created_at, id);
