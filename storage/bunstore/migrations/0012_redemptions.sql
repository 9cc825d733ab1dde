-- promo schema, version 12: the redemption ledger and its counters.
--
-- promo_redemptions holds every redemption (r_, rf_) and rollback (rr_, rrf_)
-- as its answer document (doc) and what it spent (ledger), with the columns
-- lists filter and order by. A row is written once, in the transaction that
-- changes the counters it affects; only status (and ledger.rolled_back_by)
-- change later, by a conditional update.
CREATE TABLE promo_redemptions (
    project_id          text COLLATE "C" NOT NULL,
    id                  text COLLATE "C" NOT NULL,
    object              text COLLATE "C" NOT NULL,
    parent_id           text COLLATE "C",
    voucher_id          text COLLATE "C",
    voucher_code        text COLLATE "C",
    campaign_id         text COLLATE "C",
    related_object_type text COLLATE "C" NOT NULL,
    related_object_id   text COLLATE "C" NOT NULL,
    customer_id         text COLLATE "C",
    order_id            text COLLATE "C",
    tracking_id         text COLLATE "C",
    result              text COLLATE "C" NOT NULL,
    status              text COLLATE "C" NOT NULL,
    failure_code        text COLLATE "C",
    idempotency_key     text COLLATE "C",
    created_at          timestamptz NOT NULL,
    doc                 jsonb NOT NULL,
    ledger              jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_redemptions_created_idx ON promo_redemptions (project_id, created_at, id);
CREATE INDEX promo_redemptions_voucher_idx ON promo_redemptions (project_id, voucher_id, created_at) WHERE voucher_id IS NOT NULL;
CREATE INDEX promo_redemptions_parent_idx ON promo_redemptions (project_id, parent_id) WHERE parent_id IS NOT NULL;
CREATE UNIQUE INDEX promo_redemptions_idempotency_key ON promo_redemptions (project_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Counters of the ledger that are not a voucher's own columns (per-customer
-- counts, customer and tier summaries): each is the sum of the deltas its
-- rows added, changed by an atomic upsert that checks its limit.
CREATE TABLE promo_redemption_counters (
    project_id text COLLATE "C" NOT NULL,
    key        text COLLATE "C" NOT NULL,
    value      bigint NOT NULL,
    PRIMARY KEY (project_id, key)
);
