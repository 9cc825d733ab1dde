-- promo schema, version 4: categories, campaigns, vouchers, async actions.
-- Boolean fields that lists filter on are stored as the text 'true' or
-- 'false', as the filters compare them.

CREATE TABLE promo_categories (
    project_id text COLLATE "C" NOT NULL,
    id         text COLLATE "C" NOT NULL,
    name       text COLLATE "C" NOT NULL,
    hierarchy  integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    updated_at timestamptz,
    PRIMARY KEY (project_id, id)
);
-- A category name is unique in a project.
CREATE UNIQUE INDEX promo_categories_name_key ON promo_categories (project_id, name);
CREATE INDEX promo_categories_created_idx ON promo_categories (project_id, created_at NULLS FIRST, id);

CREATE TABLE promo_campaigns (
    project_id                 text COLLATE "C" NOT NULL,
    id                         text COLLATE "C" NOT NULL,
    name                       text COLLATE "C" NOT NULL,
    campaign_type              text COLLATE "C" NOT NULL,
    type                       text COLLATE "C" NOT NULL,
    category_id                text COLLATE "C",
    creation_status            text COLLATE "C" NOT NULL,
    vouchers_generation_status text COLLATE "C" NOT NULL,
    voucher_type               text COLLATE "C",
    active                     text COLLATE "C" NOT NULL,
    is_referral_code           text COLLATE "C" NOT NULL,
    vouchers_count             bigint NOT NULL DEFAULT 0,
    revision                   integer NOT NULL DEFAULT 0,
    start_date                 timestamptz,
    expiration_date            timestamptz,
    data                       jsonb NOT NULL, -- every other field of the campaign
    created_at                 timestamptz NOT NULL,
    updated_at                 timestamptz,
    binned_at                  timestamptz,
    PRIMARY KEY (project_id, id)
);
-- A campaign name is unique among the live campaigns of a project.
CREATE UNIQUE INDEX promo_campaigns_name_key ON promo_campaigns (project_id, name) WHERE binned_at IS NULL;
CREATE INDEX promo_campaigns_created_idx ON promo_campaigns (project_id, created_at NULLS FIRST, id);

-- Vouchers are written in bulk (a million in one generation), so the table
-- has few btree indexes, each costing seconds a million rows: the primary
-- key (the generated ids of one chunk share a prefix and count up, so a
-- chunk lands in one region of it) and the unique live code (the one
-- random index, unavoidable). A generation writes a campaign's vouchers
-- side by side, so a BRIN index (nearly free to keep) finds them by
-- campaign. Lists in created_at order sort the project's matching vouchers.
CREATE TABLE promo_vouchers (
    project_id          text COLLATE "C" NOT NULL,
    id                  text COLLATE "C" NOT NULL,
    code                text COLLATE "C" NOT NULL,
    campaign_id         text COLLATE "C",
    category_id         text COLLATE "C",
    type                text COLLATE "C" NOT NULL,
    active              text COLLATE "C" NOT NULL,
    is_referral_code    text COLLATE "C" NOT NULL,
    holder_id           text COLLATE "C",
    referrer_id         text COLLATE "C",
    start_date          timestamptz,
    expiration_date     timestamptz,
    redemption_quantity bigint,
    redeemed_quantity   bigint NOT NULL DEFAULT 0,
    publish_count       bigint NOT NULL DEFAULT 0,
    data                jsonb, -- the type-specific object, validity rules, additional_info
    metadata            jsonb,
    created_at          timestamptz NOT NULL,
    updated_at          timestamptz,
    binned_at           timestamptz,
    PRIMARY KEY (project_id, id)
);
-- A code is unique among the live vouchers of a project, across campaigns.
CREATE UNIQUE INDEX promo_vouchers_code_key ON promo_vouchers (project_id, code) WHERE binned_at IS NULL;
CREATE INDEX promo_vouchers_campaign_idx ON promo_vouchers USING brin (project_id, campaign_id);

CREATE TABLE promo_async_actions (
    project_id      text COLLATE "C" NOT NULL,
    id              text COLLATE "C" NOT NULL,
    type            text COLLATE "C" NOT NULL,
    status          text COLLATE "C" NOT NULL,
    operation_status text COLLATE "C" NOT NULL,
    result          bytea, -- JSON; bytea holds any text a code may carry
    request_id      text NOT NULL,
    processing_time bigint NOT NULL DEFAULT 0,
    progress        integer NOT NULL DEFAULT 0,
    payload         bytea, -- JSON input of the action
    state           bytea, -- JSON checkpoint
    lease_owner     text,
    lease_until     timestamptz,
    started_at      timestamptz,
    attempts        integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_async_actions_created_idx ON promo_async_actions (project_id, created_at NULLS FIRST, id);
-- What runners claim: the actions not ended, oldest first.
CREATE INDEX promo_async_actions_pending_idx ON promo_async_actions (created_at, id)
    WHERE status IN ('ENQUEUED', 'IN_PROGRESS');
