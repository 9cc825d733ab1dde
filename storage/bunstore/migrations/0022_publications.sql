-- promo schema, version 22: publications and customers' wallets.
--
-- promo_publications holds each publication (pub_) with the columns lists
-- filter and order by; voucher_ids and voucher_codes are the published
-- vouchers in order. A source id names at most one publication.
CREATE TABLE promo_publications (
    project_id       text COLLATE "C" NOT NULL,
    id               text COLLATE "C" NOT NULL,
    created_at       timestamptz NOT NULL,
    customer_id      text COLLATE "C" NOT NULL,
    tracking_id      text COLLATE "C",
    campaign_id      text COLLATE "C",
    voucher_code     text COLLATE "C" NOT NULL,
    voucher_type     text COLLATE "C" NOT NULL,
    is_referral_code text COLLATE "C" NOT NULL,
    channel          text COLLATE "C" NOT NULL,
    source_id        text COLLATE "C",
    result           text COLLATE "C" NOT NULL,
    voucher_ids      text[] NOT NULL,
    voucher_codes    text[] NOT NULL,
    metadata         jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
-- The list's orders and its main filters in the default order read a page
-- off an index, as the other lists that grow with a project do (0016); the
-- last index is join_once's lookup of a customer's publication of a campaign.
CREATE INDEX promo_publications_id_idx ON promo_publications (project_id, id NULLS FIRST);
CREATE INDEX promo_publications_created_idx ON promo_publications (project_id, created_at NULLS FIRST, id);
CREATE INDEX promo_publications_voucher_code_idx ON promo_publications (project_id, voucher_code NULLS FIRST, id);
CREATE INDEX promo_publications_tracking_idx ON promo_publications (project_id, tracking_id NULLS FIRST, id);
CREATE INDEX promo_publications_channel_idx ON promo_publications (project_id, channel NULLS FIRST, id);
CREATE INDEX promo_publications_customer_idx ON promo_publications (project_id, customer_id, created_at NULLS FIRST, id);
CREATE INDEX promo_publications_campaign_idx ON promo_publications (project_id, campaign_id, created_at NULLS FIRST, id);
CREATE INDEX promo_publications_joined_idx ON promo_publications (project_id, customer_id, campaign_id, created_at NULLS FIRST, id);
CREATE UNIQUE INDEX promo_publications_source_key ON promo_publications (project_id, source_id) WHERE source_id IS NOT NULL;

-- promo_holders is the wallet: one row per customer and voucher held.
CREATE TABLE promo_holders (
    project_id        text COLLATE "C" NOT NULL,
    id                text COLLATE "C" NOT NULL,
    created_at        timestamptz NOT NULL,
    redeemable_id     text COLLATE "C" NOT NULL,
    redeemable_object text COLLATE "C" NOT NULL,
    customer_id       text COLLATE "C" NOT NULL,
    holder_role       text COLLATE "C" NOT NULL,
    campaign_id       text COLLATE "C",
    campaign_type     text COLLATE "C",
    voucher_type      text COLLATE "C" NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX promo_holders_held_key ON promo_holders (project_id, customer_id, redeemable_id);
CREATE INDEX promo_holders_customer_idx ON promo_holders (project_id, customer_id, id NULLS FIRST);

-- The free vouchers of a campaign, lowest id first: what a campaign
-- publication claims (FOR UPDATE SKIP LOCKED) without reading the held ones.
CREATE INDEX promo_vouchers_free_idx ON promo_vouchers (project_id, campaign_id, id)
    WHERE binned_at IS NULL AND holder_id IS NULL AND active = 'true';
