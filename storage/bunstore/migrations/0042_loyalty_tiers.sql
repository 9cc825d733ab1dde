-- promo schema, version 42: loyalty tiers (issue 27), each kept as its
-- JSON document with the columns lists filter and order on.
CREATE TABLE promo_loyalty_tiers (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    campaign_id text COLLATE "C" NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz,
    doc         jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_loyalty_tiers_campaign_idx ON promo_loyalty_tiers (project_id, campaign_id, created_at, id);
